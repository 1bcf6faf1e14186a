/** The PostgreSQL schema the chain service owns. Every table name in SQL is qualified with it. */
export const SCHEMA = 'chain';

/** Kafka topics (ARCHITECTURE §2): requested work, keyed by network:signer, and job status changes. */
export const TOPIC_JOBS = 'chain.jobs';
export const TOPIC_JOB_EVENTS = 'chain.job-events';
