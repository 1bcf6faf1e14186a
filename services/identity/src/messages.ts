/** Message texts. Those marked §7 are the interface spec's, verbatim; legacy clients match on them. */
export const MSG = {
  userIdentifierMissing: 'User identifier is missing.', // §7
  noUsers: 'No users are registered.', // §7
  noSuchUser: 'No such user.', // §7
  groupAlreadyConnected: 'Group is already connected to user.', // §7
  investorAlreadyConnected: 'Investor is already connected to user.', // §7
  noSuchInvestor: 'No such investor.', // §7
  userAdded: 'User added.',
  userUpdated: 'User updated.',
  userRemoved: 'User removed.',
  groupAdded: 'Group added to user.',
  groupRemoved: 'Group removed from user.',
  groupNotConnected: 'Group is not connected to user.',
  investorAdded: 'Investor added to user.',
  investorRemoved: 'Investor removed from user.',
  encryptedNeedsKey:
    "This user's personal data is encrypted; pass the same encryption_key to change it, or give first name, last name and e-mail anew.",
} as const;
