// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Anchors many report documents in one transaction: the writer records the Merkle root of the
/// documents' leaves (see docs/chain.md "Proofs": leaf = keccak256(anchorId ‖ sha256 ‖ cid), nodes =
/// keccak256 of the sorted pair). Each document carries its proof path; anyone re-checks it against the
/// root recorded here. A root is written once and never changed.
contract DocumentRoots {
    struct Root {
        address writer;
        uint32 count;
        uint64 anchoredAt;
        uint64 blockNumber;
    }

    address public owner;
    mapping(address => bool) public writers;
    mapping(bytes32 => Root) private roots;

    event RootAnchored(bytes32 indexed root, uint32 count, address indexed writer);
    event WriterChanged(address indexed writer, bool allowed);

    error NotOwner();
    error NotWriter(address caller);
    error AlreadyAnchored(bytes32 root);
    error EmptyAnchor();

    /// `writer` is the service's signer (the deployer may be another key, so the signer's nonces stay its own).
    constructor(address writer) {
        owner = msg.sender;
        writers[writer] = true;
        emit WriterChanged(writer, true);
    }

    function setWriter(address writer, bool allowed) external {
        if (msg.sender != owner) revert NotOwner();
        writers[writer] = allowed;
        emit WriterChanged(writer, allowed);
    }

    function anchorRoot(bytes32 root, uint32 count) external {
        if (!writers[msg.sender]) revert NotWriter(msg.sender);
        if (root == bytes32(0) || count == 0) revert EmptyAnchor();
        if (roots[root].blockNumber != 0) revert AlreadyAnchored(root);
        roots[root] = Root(msg.sender, count, uint64(block.timestamp), uint64(block.number));
        emit RootAnchored(root, count, msg.sender);
    }

    function getRoot(bytes32 root)
        external
        view
        returns (bool found, address writer, uint32 count, uint64 anchoredAt, uint64 blockNumber)
    {
        Root storage r = roots[root];
        return (r.blockNumber != 0, r.writer, r.count, r.anchoredAt, r.blockNumber);
    }
}
