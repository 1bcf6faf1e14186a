#!/usr/bin/env node
// Compiles the Solidity sources in contracts/ with solc-js (the compiler bundled in the `solc` npm
// package: nothing is downloaded) into generated/contracts.json, which the service loads at run time.
// Skips the work when the sources, the compiler and the settings are unchanged. Run by the build:
//   npm run compile-contracts --workspace=@green-impact/chain
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const require = createRequire(import.meta.url);
const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const sourceDir = join(pkgDir, 'contracts');
const outFile = join(pkgDir, 'generated', 'contracts.json');

// cancun: supported by Hardhat's EDR and by the public EVM networks the service targets (Sepolia, Amoy).
const settings = {
  evmVersion: 'cancun',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
};

const sources = {};
for (const name of readdirSync(sourceDir).filter((f) => f.endsWith('.sol')).sort()) {
  sources[name] = { content: readFileSync(join(sourceDir, name), 'utf8') };
}
const version = solc.version();
// Imported libraries (OpenZeppelin) are part of the bytecode: a new version of them compiles again.
const libraries = { '@openzeppelin/contracts': require('@openzeppelin/contracts/package.json').version };
const inputHash = createHash('sha256').update(JSON.stringify({ version, settings, sources, libraries })).digest('hex');

if (existsSync(outFile)) {
  try {
    if (JSON.parse(readFileSync(outFile, 'utf8')).inputHash === inputHash) process.exit(0);
  } catch {
    // Unreadable output: compile again.
  }
}

/** Imports such as @openzeppelin/contracts/… resolve to installed npm packages. */
function findImports(path) {
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') };
  } catch {
    return { error: `Import not found: ${path}` };
  }
}

const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings }), { import: findImports }));
const problems = (output.errors ?? []).filter((e) => e.severity === 'error');
for (const e of output.errors ?? []) process.stderr.write(`${e.formattedMessage ?? e.message}\n`);
if (problems.length > 0) {
  process.stderr.write(`compile-contracts: ${problems.length} error(s); nothing written.\n`);
  process.exit(1);
}

const contracts = {};
for (const [file, byName] of Object.entries(output.contracts ?? {})) {
  if (!(file in sources)) continue; // libraries pulled in by imports are part of their users' bytecode
  for (const [name, c] of Object.entries(byName)) {
    contracts[name] = {
      source: `contracts/${file}`,
      abi: c.abi,
      bytecode: `0x${c.evm.bytecode.object}`,
      deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
    };
  }
}

mkdirSync(dirname(outFile), { recursive: true });
const tmp = `${outFile}.${process.pid}.tmp`;
writeFileSync(tmp, JSON.stringify({ compiler: `solc-js ${version}`, evmVersion: settings.evmVersion, inputHash, contracts }, null, 1) + '\n');
renameSync(tmp, outFile);
process.stdout.write(`compile-contracts: ${Object.keys(contracts).join(', ')} (solc ${version})\n`);
