import type { Solution } from '../v1/operation.js';
import type { AnswerDeclaration, Answers } from './answer-shapes.js';
import { blockchainAnswers, hashAnswers, nftAnswers } from './chain/answers.js';
import { frameworkAnswers } from './frameworks/answers.js';
import { identityAnswers } from './identity/answers.js';
import { portfolioAnswers } from './portfolio/answers.js';
import { taxonomyAnswers } from './taxonomy/answers.js';

/**
 * Every /v1/call operation's 200 answer, by solution and operation name (the domains' answers.ts). The
 * OpenAPI document is written from it; its test fails on an operation of the table without an answer
 * here, or an answer here without an operation.
 */
export const ANSWERS: Readonly<Record<Solution, Answers>> = {
  'SVC.ESG.Credits': {
    ...identityAnswers,
    ...taxonomyAnswers,
    ...frameworkAnswers,
    ...portfolioAnswers,
    ...blockchainAnswers,
  },
  'SVC.Blockchain.Hash': hashAnswers,
  'SVC.NFT.zK': nftAnswers,
};

/** The answer of an operation, or undefined when none is declared. */
export function answerOf(solution: Solution, operation: string): AnswerDeclaration | undefined {
  return Object.hasOwn(ANSWERS[solution], operation) ? ANSWERS[solution][operation] : undefined;
}
