import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '@green-impact/shared/logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface SentMail {
  messageId: string;
  /** The .eml file written, in outbox mode. */
  file?: string;
}

export interface Mailer {
  /** Where mail goes, for logs (an SMTP origin without credentials, or the outbox folder). */
  readonly description: string;
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL (credentials in it); without it, messages are written to outboxDir. */
  smtpUrl?: string | undefined;
  outboxDir: string;
  /** The From header, e.g. `"Green Impact" <nft@example.org>`. */
  from: string;
  log: Logger;
}

export const DEFAULT_MAIL_FROM = '"Green Impact" <no-reply@localhost>';

/**
 * E-mail through nodemailer: SMTP when SMTP_URL is set, otherwise each message is written as an .eml
 * file (RFC 5322, openable by any mail client) into the outbox folder, so the embedded default needs no
 * mail server and a developer can still read what would have been sent.
 */
export function createMailer(opts: MailerOptions): Mailer {
  if (opts.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(opts.smtpUrl);
    const smtp = new URL(opts.smtpUrl);
    return {
      description: `SMTP ${smtp.protocol}//${smtp.host}`,
      async send(message) {
        const info = (await transport.sendMail({ from: opts.from, ...message })) as { messageId: string };
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport: Transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  let ready: Promise<unknown> | undefined;
  return {
    description: `outbox ${opts.outboxDir}`,
    async send(message) {
      const info = (await transport.sendMail({ from: opts.from, ...message })) as { messageId: string; message: Buffer };
      ready ??= mkdir(opts.outboxDir, { recursive: true });
      await ready;
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = join(opts.outboxDir, name);
      await writeFile(`${file}.tmp`, info.message);
      await rename(`${file}.tmp`, file);
      opts.log.info({ file: name }, 'e-mail written to the outbox folder (no SMTP_URL)');
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
