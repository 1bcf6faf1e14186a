/*
 * kafka-mock: a real Kafka wire-protocol broker for tests, without a JVM.
 *
 * Wraps librdkafka's mock cluster (rdkafka_mock.h, from Debian's librdkafka-dev):
 * starts it on 127.0.0.1 (ephemeral ports), pre-creates the project's topics, prints
 * one line "BOOTSTRAP host:port[,host:port...]" on stdout, then runs until SIGTERM/SIGINT
 * or until stdin closes (so a test runner that dies never leaves a broker behind).
 *
 * Usage: kafka-mock [--partitions N] [--brokers N] [--no-stdin] [--debug] [topic[:partitions] ...]
 *
 * The mock does not implement CreateTopics, so every topic a test needs must exist before
 * clients connect: the project's topics always, extra ones from the arguments.
 *
 * Commands on stdin, one per line (fault tests), each answered by one line on stdout:
 *   down <broker id>   disconnect the broker and refuse connections (-1: every broker)
 *   up <broker id>     accept connections again; topics, offsets and groups were kept
 * answer "OK <command> <id>" or "ERR <command> <id> <reason>". Broker ids start at 1.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

static const char *const project_topics[] = {"chain.jobs", "chain.job-events"};

/* Self-pipe: the handler only writes a byte, the main loop polls it next to stdin. */
static int signal_pipe[2] = {-1, -1};

static void on_signal(int sig) {
        int saved = errno;
        unsigned char b = (unsigned char)sig;
        if (write(signal_pipe[1], &b, 1) < 0) { /* nothing useful to do */ }
        errno = saved;
}

static void usage(FILE *out) {
        fprintf(out,
                "usage: kafka-mock [--partitions N] [--brokers N] [--no-stdin] [--debug] "
                "[topic[:partitions] ...]\n"
                "  --partitions N  partitions per topic (default 3)\n"
                "  --brokers N     brokers in the mock cluster (default 1)\n"
                "  --no-stdin      do not exit when stdin closes (only on SIGTERM/SIGINT)\n"
                "  --debug         librdkafka debug logging for the mock (stderr)\n");
}

static int parse_positive(const char *s, const char *what) {
        char *end = NULL;
        long v = strtol(s, &end, 10);
        if (!s[0] || *end || v < 1 || v > 10000) {
                fprintf(stderr, "kafka-mock: invalid %s: %s\n", what, s);
                exit(2);
        }
        return (int)v;
}

static int create_topic(rd_kafka_mock_cluster_t *mc, const char *spec, int partitions,
                        int replication) {
        char name[512];
        const char *colon = strrchr(spec, ':');
        size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
        if (len == 0 || len >= sizeof(name)) {
                fprintf(stderr, "kafka-mock: invalid topic: %s\n", spec);
                return -1;
        }
        memcpy(name, spec, len);
        name[len] = '\0';
        if (colon) partitions = parse_positive(colon + 1, "topic partitions");
        rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mc, name, partitions, replication);
        if (err) {
                fprintf(stderr, "kafka-mock: cannot create topic %s: %s\n", name,
                        rd_kafka_err2str(err));
                return -1;
        }
        return 0;
}

/* Runs one stdin command line (see the header comment) and answers it on stdout. */
static void run_command(rd_kafka_mock_cluster_t *mc, char *line) {
        char cmd[16];
        char *end = NULL;
        int consumed = 0;
        if (sscanf(line, "%15s %n", cmd, &consumed) != 1) return; /* blank line */
        const char *arg = line + consumed;
        long id = strtol(arg, &end, 10);
        if (end == arg || (*end && *end != '\r') || id < -1 || id > 10000) {
                printf("ERR %s %s invalid broker id\n", cmd, arg);
        } else if (!strcmp(cmd, "down") || !strcmp(cmd, "up")) {
                rd_kafka_resp_err_t err = !strcmp(cmd, "down")
                                              ? rd_kafka_mock_broker_set_down(mc, (int32_t)id)
                                              : rd_kafka_mock_broker_set_up(mc, (int32_t)id);
                if (err) printf("ERR %s %ld %s\n", cmd, id, rd_kafka_err2str(err));
                else printf("OK %s %ld\n", cmd, id);
        } else {
                printf("ERR %s %ld unknown command\n", cmd, id);
        }
        fflush(stdout);
}

int main(int argc, char **argv) {
        int partitions = 3, brokers = 1, watch_stdin = 1, debug = 0;
        int first_topic = argc;
        for (int i = 1; i < argc; i++) {
                if (!strcmp(argv[i], "--partitions") && i + 1 < argc)
                        partitions = parse_positive(argv[++i], "partition count");
                else if (!strcmp(argv[i], "--brokers") && i + 1 < argc)
                        brokers = parse_positive(argv[++i], "broker count");
                else if (!strcmp(argv[i], "--no-stdin"))
                        watch_stdin = 0;
                else if (!strcmp(argv[i], "--debug"))
                        debug = 1;
                else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
                        usage(stdout);
                        return 0;
                } else if (argv[i][0] == '-') {
                        usage(stderr);
                        return 2;
                } else {
                        first_topic = i;
                        break;
                }
        }

        if (pipe(signal_pipe) != 0) {
                perror("kafka-mock: pipe");
                return 1;
        }
        /* Block the signals while librdkafka starts its threads so they inherit the mask and
         * only this thread ever runs the handler. */
        sigset_t sigs, old;
        sigemptyset(&sigs);
        sigaddset(&sigs, SIGTERM);
        sigaddset(&sigs, SIGINT);
        pthread_sigmask(SIG_BLOCK, &sigs, &old);
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGINT, &sa, NULL);
        /* A parent that closes our stdout must not kill us mid-teardown. */
        signal(SIGPIPE, SIG_IGN);

        char errstr[512];
        rd_kafka_conf_t *conf = rd_kafka_conf_new();
        /* Hides the notice that the hosting handle has no bootstrap.servers (it needs none). */
        rd_kafka_conf_set(conf, "log_level", debug ? "7" : "4", errstr, sizeof(errstr));
        if (debug && rd_kafka_conf_set(conf, "debug", "mock", errstr, sizeof(errstr)) !=
                         RD_KAFKA_CONF_OK) {
                fprintf(stderr, "kafka-mock: %s\n", errstr);
        }
        /* The handle only hosts the mock cluster; it never connects anywhere itself. */
        rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
        if (!rk) {
                fprintf(stderr, "kafka-mock: rd_kafka_new: %s\n", errstr);
                return 1;
        }
        rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(rk, brokers);
        if (!mc) {
                fprintf(stderr, "kafka-mock: cannot create mock cluster\n");
                rd_kafka_destroy(rk);
                return 1;
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);

        int replication = brokers < 3 ? brokers : 3;
        int failed = 0;
        for (size_t t = 0; t < sizeof(project_topics) / sizeof(project_topics[0]); t++)
                failed |= create_topic(mc, project_topics[t], partitions, replication);
        for (int i = first_topic; i < argc; i++)
                failed |= create_topic(mc, argv[i], partitions, replication);

        if (!failed) {
                printf("BOOTSTRAP %s\n", rd_kafka_mock_cluster_bootstraps(mc));
                fflush(stdout);

                struct pollfd fds[2] = {{.fd = signal_pipe[0], .events = POLLIN},
                                        {.fd = STDIN_FILENO, .events = POLLIN}};
                char buf[256];
                char line[256];
                size_t line_len = 0;
                for (;;) {
                        int n = poll(fds, watch_stdin ? 2 : 1, -1);
                        if (n < 0) {
                                if (errno == EINTR) continue;
                                perror("kafka-mock: poll");
                                break;
                        }
                        if (fds[0].revents) break;
                        if (watch_stdin && fds[1].revents) {
                                /* Commands, one per line; end-of-file (or an error) stops. */
                                ssize_t r = read(STDIN_FILENO, buf, sizeof(buf));
                                if (r < 0 && errno == EINTR) continue;
                                if (r <= 0) break;
                                for (ssize_t i = 0; i < r; i++) {
                                        if (buf[i] != '\n') {
                                                /* An over-long line is cut to its first 255 bytes. */
                                                if (line_len < sizeof(line) - 1) line[line_len++] = buf[i];
                                                continue;
                                        }
                                        line[line_len] = '\0';
                                        line_len = 0;
                                        run_command(mc, line);
                                }
                        }
                }
        }

        rd_kafka_mock_cluster_destroy(mc);
        rd_kafka_destroy(rk);
        return failed ? 1 : 0;
}
