// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Key-value storage of SVC.Blockchain.Hash: strings and 32-byte words under string keys. Every key lives
/// in a namespace (the service passes a hash of the caller's account), so accounts never overwrite each
/// other's keys. Only writers (the service's signers) write; anyone reads.
contract KeyValueStore {
    address public owner;
    mapping(address => bool) public writers;
    mapping(bytes32 => mapping(string => string)) private strings;
    mapping(bytes32 => mapping(string => bool)) private hasString;
    mapping(bytes32 => mapping(string => bytes32)) private words;
    mapping(bytes32 => mapping(string => bool)) private hasWord;

    event StringInserted(bytes32 indexed namespace, string key, string value);
    event Bytes32Inserted(bytes32 indexed namespace, string key, bytes32 value);
    event WriterChanged(address indexed writer, bool allowed);
    event EntrySkipped(bytes32 indexed namespace, uint256 index);

    error NotOwner();
    error NotWriter(address caller);
    error InvalidKey();

    constructor() {
        owner = msg.sender;
        writers[msg.sender] = true;
        emit WriterChanged(msg.sender, true);
    }

    modifier onlyWriter() {
        if (!writers[msg.sender]) revert NotWriter(msg.sender);
        _;
    }

    function setWriter(address writer, bool allowed) external {
        if (msg.sender != owner) revert NotOwner();
        writers[writer] = allowed;
        emit WriterChanged(writer, allowed);
    }

    function insertString(bytes32 namespace, string calldata key, string calldata value) external onlyWriter {
        if (bytes(key).length == 0) revert InvalidKey();
        strings[namespace][key] = value;
        hasString[namespace][key] = true;
        emit StringInserted(namespace, key, value);
    }

    function selectString(bytes32 namespace, string calldata key) external view returns (bool found, string memory value) {
        return (hasString[namespace][key], strings[namespace][key]);
    }

    function insertBytes32(bytes32 namespace, string calldata key, bytes32 value) external onlyWriter {
        if (bytes(key).length == 0) revert InvalidKey();
        words[namespace][key] = value;
        hasWord[namespace][key] = true;
        emit Bytes32Inserted(namespace, key, value);
    }

    /// One entry of insertMany: a string (isWord false) or a 32-byte word (isWord true) under `key`.
    struct Entry {
        string key;
        bool isWord;
        string value;
        bytes32 word;
    }

    /// Many inserts of one namespace in one transaction, in order (a later entry of the same key wins, as
    /// separate inserts would). Each entry is reported by the same event a single insert emits; an entry
    /// with an empty key is skipped and reported by EntrySkipped, so it never fails the others.
    function insertMany(bytes32 namespace, Entry[] calldata entries) external onlyWriter {
        for (uint256 i = 0; i < entries.length; i++) {
            Entry calldata e = entries[i];
            if (bytes(e.key).length == 0) {
                emit EntrySkipped(namespace, i);
                continue;
            }
            if (e.isWord) {
                words[namespace][e.key] = e.word;
                hasWord[namespace][e.key] = true;
                emit Bytes32Inserted(namespace, e.key, e.word);
            } else {
                strings[namespace][e.key] = e.value;
                hasString[namespace][e.key] = true;
                emit StringInserted(namespace, e.key, e.value);
            }
        }
    }

    function selectBytes32(bytes32 namespace, string calldata key) external view returns (bool found, bytes32 value) {
        return (hasWord[namespace][key], words[namespace][key]);
    }
}
