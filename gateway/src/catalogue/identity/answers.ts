import { z } from 'zod';
import { userAnswer } from '../../generated/identity.js';
import { answer, changed, id, messageAnswer, type Answers } from '../answer-shapes.js';

/**
 * 200 answers of the identity operations (spec §4.11, and generateEncryptionKey of §4.9). A listing of
 * users answers `{"message": "No users are registered."}` instead of an empty array, as the spec does.
 * Names and e-mails never set are null; masked ones (no or a wrong decryption key) are the mask text.
 */

/** An investor the user may access; id and name are null when no investor record has the identifier. */
const investorOfUser = z.strictObject({
  investor_id: id().nullable(),
  investor_identifier: z.string(),
  investor_name: z.string().nullable(),
});
const userWithInvestors = z.strictObject({ user_id: id(), user_identifier: z.string(), investors: z.array(investorOfUser) });
/** `{"message": "No users are registered."}`: the spec's answer where a listing finds no user. */
const noUsers = messageAnswer;

export const identityAnswers = {
  getUsers: answer(z.union([z.array(userAnswer), noUsers]), [
    {
      user_id: 4,
      user_identifier: 'ann.lee',
      user_first_name: 'Ann',
      user_last_name: 'Lee',
      user_email: 'ann.lee@example.org',
      user_role: 'admin',
      user_groups: [{ group_id: 1, group: 'reporting' }],
    },
  ]),
  addUser: changed('User added.'),
  removeUser: changed('User removed.'),
  getGroups: answer(z.array(z.strictObject({ id: id(), group: z.string() })), [
    { id: 1, group: 'reporting' },
    { id: 2, group: 'treasury' },
  ]),
  addGroupToUser: changed('Group added to user.'),
  removeGroupFromUser: changed('Group removed from user.'),
  getInvestorsOfUser: answer(z.union([z.array(userWithInvestors), noUsers]), [
    {
      user_id: 4,
      user_identifier: 'ann.lee',
      investors: [
        { investor_id: 11, investor_identifier: 'inv_k3q7f2mzx4a5bn6c7d2e', investor_name: 'Nordic Pension Fund' },
        { investor_id: null, investor_identifier: 'inv_removed0000000000000', investor_name: null },
      ],
    },
  ]),
  addInvestorToUser: changed('Investor added to user.'),
  removeInvestorFromUser: changed('Investor removed from user.'),
  /** The new key is the message (spec §4.9): 32 random bytes in hex. */
  generateEncryptionKey: answer(z.strictObject({ message: z.string().regex(/^[0-9a-f]{64}$/) }), {
    message: '7d2c9a61f04b3e58c1a9d6e2b47f0c35a8e1d9b2c6f4a7e0d3b5c8f1a2e4d6b9',
  }),
} satisfies Answers;
