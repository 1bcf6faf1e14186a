/** The PostgreSQL schema the taxonomy service owns. Every table name in SQL is qualified with it. */
export const SCHEMA = 'taxonomy';
