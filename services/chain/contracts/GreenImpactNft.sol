// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// NFTs of the service: OpenZeppelin's ERC-721 with URI storage. The service's signer owns the contract
/// and mints each token to its own custody wallet with the token URI `ipfs://<CID>` of the metadata
/// JSON; the custody wallet later transfers the token to the holder's wallet (transfer, or claim of an
/// e-mailed send). Token ids count from 1. `mintMany` mints many in one transaction; `mintDigests` too,
/// storing each token's metadata as its sha-256 digest (one storage slot instead of the four of a 66-byte
/// URI string) and answering tokenURI with the same `ipfs://<CIDv1 raw, sha2-256, base32>` string.
contract GreenImpactNft is ERC721URIStorage, Ownable {
    uint256 private _nextTokenId = 1;
    /// Metadata of tokens minted by `mintDigests`: the sha-256 digest of the metadata JSON (its raw CID's hash).
    mapping(uint256 tokenId => bytes32) private _metadataDigests;

    error EmptyTokenURI();
    error LengthMismatch(uint256 recipients, uint256 uris);

    constructor(address initialOwner) ERC721("Green Impact NFT", "GINFT") Ownable(initialOwner) {}

    /// Mints the next token to `to` with `uri`; emits Transfer(0, to, tokenId) and MetadataUpdate(tokenId).
    function mint(address to, string calldata uri) external onlyOwner returns (uint256 tokenId) {
        if (bytes(uri).length == 0) revert EmptyTokenURI();
        tokenId = _nextTokenId++;
        _safeMint(to, tokenId);
        _setTokenURI(tokenId, uri);
    }

    /// Mints one token per entry, in order: `to[i]` gets the token `firstTokenId + i` with `uris[i]`. Each
    /// emits the Transfer(0, to, tokenId) and MetadataUpdate(tokenId) a single mint does, so a receipt's
    /// Transfer events from the zero address give the ids in entry order. The service checks every entry
    /// before batching (a non-empty URI; its own custody wallet as recipient), so one bad entry reverting
    /// the whole batch does not happen in practice; it reverts rather than skip, since skipping would
    /// shift the ids of the entries after it.
    function mintMany(address[] calldata to, string[] calldata uris) external onlyOwner returns (uint256 firstTokenId) {
        if (to.length != uris.length) revert LengthMismatch(to.length, uris.length);
        firstTokenId = _nextTokenId;
        for (uint256 i = 0; i < to.length; i++) {
            if (bytes(uris[i]).length == 0) revert EmptyTokenURI();
            uint256 tokenId = _nextTokenId++;
            _safeMint(to[i], tokenId);
            _setTokenURI(tokenId, uris[i]);
        }
    }

    /// Mints one token per entry, in order, like `mintMany`, with the metadata named by its sha-256 digest
    /// (`digests[i]` is the digest of the CIDv1 `raw` sha2-256 content identifier of entry i's metadata JSON):
    /// tokenURI answers `ipfs://<that CID>` as if the string were stored. Each token emits its
    /// Transfer(0, to, tokenId); one BatchMetadataUpdate(first, last) (ERC-4906) covers them all.
    function mintDigests(address[] calldata to, bytes32[] calldata digests) external onlyOwner returns (uint256 firstTokenId) {
        if (to.length != digests.length) revert LengthMismatch(to.length, digests.length);
        firstTokenId = _nextTokenId;
        for (uint256 i = 0; i < to.length; i++) {
            if (digests[i] == bytes32(0)) revert EmptyTokenURI();
            uint256 tokenId = _nextTokenId++;
            _metadataDigests[tokenId] = digests[i];
            _safeMint(to[i], tokenId);
        }
        if (to.length > 0) emit BatchMetadataUpdate(firstTokenId, _nextTokenId - 1);
    }

    /// `ipfs://<CID>` of the token's metadata: built from its digest, or the URI string stored by `mint`/`mintMany`.
    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        bytes32 digest = _metadataDigests[tokenId];
        if (digest == bytes32(0)) return super.tokenURI(tokenId);
        _requireOwned(tokenId);
        return string.concat("ipfs://", _rawCid(digest));
    }

    /// CIDv1 (0x01), codec raw (0x55), multihash sha2-256 (0x12, 32 bytes), in multibase base32 lower case
    /// without padding ("b" + RFC 4648): "bafkrei…", 59 characters, as the service's content store names it.
    function _rawCid(bytes32 digest) private pure returns (string memory) {
        bytes memory raw = abi.encodePacked(bytes4(0x01551220), digest);
        bytes memory alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        bytes memory out = new bytes(1 + (raw.length * 8 + 4) / 5);
        out[0] = "b";
        uint256 buffer;
        uint256 bits;
        uint256 o = 1;
        for (uint256 i = 0; i < raw.length; i++) {
            buffer = (buffer << 8) | uint8(raw[i]);
            bits += 8;
            while (bits >= 5) {
                bits -= 5;
                out[o++] = alphabet[(buffer >> bits) & 31];
            }
        }
        if (bits > 0) out[o++] = alphabet[(buffer << (5 - bits)) & 31];
        return string(out);
    }

    /// How many tokens were minted so far (token ids 1..totalMinted()).
    function totalMinted() external view returns (uint256) {
        return _nextTokenId - 1;
    }
}
