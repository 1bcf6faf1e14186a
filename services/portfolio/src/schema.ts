/** The PostgreSQL schema the portfolio service owns. Every table name in SQL is qualified with it. */
export const SCHEMA = 'portfolio';
