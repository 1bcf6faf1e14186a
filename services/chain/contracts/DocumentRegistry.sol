// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Anchors report documents: for each job, the SHA-256 of the content and its content id (CID) in the
/// service's content-addressed store. An anchor is written once and never changed, so a reader can
/// always re-check a document against what was written at the time.
contract DocumentRegistry {
    struct Anchor {
        bytes32 sha256Hash;
        string cid;
        address writer;
        uint64 anchoredAt;
        uint64 blockNumber;
    }

    address public owner;
    mapping(address => bool) public writers;
    mapping(bytes32 => Anchor) private anchors;

    event DocumentAnchored(bytes32 indexed id, bytes32 indexed sha256Hash, string cid, address indexed writer);
    event WriterChanged(address indexed writer, bool allowed);

    error NotOwner();
    error NotWriter(address caller);
    error AlreadyAnchored(bytes32 id);
    error EmptyAnchor();

    constructor() {
        owner = msg.sender;
        writers[msg.sender] = true;
        emit WriterChanged(msg.sender, true);
    }

    function setWriter(address writer, bool allowed) external {
        if (msg.sender != owner) revert NotOwner();
        writers[writer] = allowed;
        emit WriterChanged(writer, allowed);
    }

    function anchor(bytes32 id, bytes32 sha256Hash, string calldata cid) external {
        if (!writers[msg.sender]) revert NotWriter(msg.sender);
        if (sha256Hash == bytes32(0) || bytes(cid).length == 0) revert EmptyAnchor();
        if (anchors[id].sha256Hash != bytes32(0)) revert AlreadyAnchored(id);
        anchors[id] = Anchor(sha256Hash, cid, msg.sender, uint64(block.timestamp), uint64(block.number));
        emit DocumentAnchored(id, sha256Hash, cid, msg.sender);
    }

    function getAnchor(bytes32 id)
        external
        view
        returns (bool found, bytes32 sha256Hash, string memory cid, address writer, uint64 anchoredAt, uint64 blockNumber)
    {
        Anchor storage a = anchors[id];
        return (a.sha256Hash != bytes32(0), a.sha256Hash, a.cid, a.writer, a.anchoredAt, a.blockNumber);
    }
}
