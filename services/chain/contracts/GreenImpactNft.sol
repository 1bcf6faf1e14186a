// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// NFTs of the service: OpenZeppelin's ERC-721 with URI storage. The service's signer owns the contract
/// and mints each token to its own custody wallet with the token URI `ipfs://<CID>` of the metadata
/// JSON; the custody wallet later transfers the token to the holder's wallet (transfer, or claim of an
/// e-mailed send). Token ids count from 1. `mintMany` mints many in one transaction (the service's batches).
contract GreenImpactNft is ERC721URIStorage, Ownable {
    uint256 private _nextTokenId = 1;

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

    /// How many tokens were minted so far (token ids 1..totalMinted()).
    function totalMinted() external view returns (uint256) {
        return _nextTokenId - 1;
    }
}
