// Calls a running dasch through @lightprotocol/stateless.js as an
// application on a cluster does: one URL for the Solana and the
// compression endpoints, not a local one, so the client reads its state
// tree list from the lookup tables (getAccountInfo, which dasch forwards
// to its upstream node) instead of taking its built-in local list.
//
// usage: node upstream.mjs URL OWNER
//
// URL is the endpoint with its ?api-key=KEY and must name neither
// localhost nor 127.0.0.1. The summary is printed on stdout; a failed call
// is recorded under "errors" and makes the exit status 1.

import stateless from '@lightprotocol/stateless.js';
import web3 from '@solana/web3.js';

const { createRpc } = stateless;
const { PublicKey } = web3;

const [url, ownerArg] = process.argv.slice(2);
if (!url || !ownerArg) {
    console.error('usage: node upstream.mjs URL OWNER');
    process.exit(2);
}
const owner = new PublicKey(ownerArg);
const rpc = createRpc(url, url);

const summary = {};
const errors = {};

async function call(name, fn) {
    try {
        summary[name] = await fn();
    } catch (e) {
        errors[name] = String(e && e.stack ? e.stack : e);
    }
}

const key = k => (k ? k.toBase58() : null);

// Standard Solana methods, answered by the node behind dasch.
await call('getSlot', () => rpc.getSlot());
await call('getStateTreeInfos', async () =>
    (await rpc.getStateTreeInfos()).map(i => ({
        tree: key(i.tree),
        queue: key(i.queue),
        cpiContext: key(i.cpiContext),
        treeType: i.treeType,
    })),
);
// A compression method whose items the client maps onto those infos.
await call('getCompressedTokenAccountsByOwner', async () => {
    const r = await rpc.getCompressedTokenAccountsByOwner(owner);
    return r.items.map(a => ({
        tree: key(a.compressedAccount.treeInfo.tree),
        queue: key(a.compressedAccount.treeInfo.queue),
        amount: a.parsed.amount.toString(),
    }));
});

// This server has no prover: a V2 validity proof (the published default)
// has a null compressedProof, which the V2 schema admits.
await call('getValidityProofV2', async () => {
    const accounts = await rpc.getCompressedTokenAccountsByOwner(owner);
    const p = await rpc.getValidityProof(accounts.items.map(a => a.compressedAccount.hash));
    return { compressedProof: p.compressedProof ?? null };
});

// With the V1 flag the client needs the proof: the server says it has no
// prover.
stateless.featureFlags.version = stateless.VERSION.V1;
try {
    const accounts = await rpc.getCompressedTokenAccountsByOwner(owner);
    await rpc.getValidityProof(accounts.items.map(a => a.compressedAccount.hash));
    summary['getValidityProof/V1'] = { threw: false };
} catch (e) {
    summary['getValidityProof/V1'] = { threw: true, message: String(e && e.message) };
}
stateless.featureFlags.version = stateless.VERSION.V2;

summary.errors = errors;
process.stdout.write(JSON.stringify(summary, null, 1) + '\n');
process.exit(Object.keys(errors).length ? 1 : 0);
