// Calls a running dasch through the official @lightprotocol/stateless.js
// client and prints one JSON summary on stdout. Every call goes through the
// client's own request code and superstruct response schemas, so a call that
// succeeds is one whose response shape the client accepts.
//
// usage: node client.mjs URL MINT OWNER...
//
// URL is the compression endpoint, with its ?api-key=KEY. The exit status is
// 1 when any call failed; the summary is printed either way, with the failures
// under "errors". Calls expected to fail (under "error/") are recorded as
// {threw, name, message}.

import stateless from '@lightprotocol/stateless.js';
import web3 from '@solana/web3.js';
import BN from 'bn.js';

const { createRpc, featureFlags, VERSION } = stateless;
const { PublicKey } = web3;

const [url, mintArg, ...ownerArgs] = process.argv.slice(2);
if (!url || !mintArg || ownerArgs.length === 0) {
    console.error('usage: node client.mjs URL MINT OWNER...');
    process.exit(2);
}
const mint = new PublicKey(mintArg);
const owners = ownerArgs.map(o => new PublicKey(o));

// The Solana endpoint is the same loopback server: the client then takes the
// local-test state tree list (smt1 among it) instead of reading lookup
// tables from a cluster. None of the calls below reach it.
const rpc = createRpc(url, url);

const summary = { version: featureFlags.version.replace(/['"]/g, '') };
const errors = {};

async function call(name, fn) {
    try {
        summary[name] = await fn();
    } catch (e) {
        errors[name] = String(e && e.stack ? e.stack : e);
    }
}

// failure records a call that should fail: whether it threw, and with what.
async function failure(name, fn) {
    try {
        const value = await fn();
        summary[name] = { threw: false, value: value ?? null };
    } catch (e) {
        summary[name] = { threw: true, name: e && e.name, message: String(e && e.message) };
    }
}

const balances = items =>
    items.map(b => ({ mint: b.mint.toBase58(), balance: b.balance.toString() }));

const holders = items =>
    items.map(h => ({ owner: h.owner.toBase58(), balance: h.balance.toString() }));

const tokenAccounts = items =>
    items.map(a => ({
        hash: a.compressedAccount.hash ? new BN(a.compressedAccount.hash).toString() : null,
        tree: a.compressedAccount.treeInfo.tree.toBase58(),
        leafIndex: a.compressedAccount.leafIndex,
        owner: a.parsed.owner.toBase58(),
        mint: a.parsed.mint.toBase58(),
        amount: a.parsed.amount.toString(),
        delegate: a.parsed.delegate ? a.parsed.delegate.toBase58() : null,
        state: a.parsed.state,
    }));

await call('getIndexerSlot', () => rpc.getIndexerSlot());
await call('getIndexerHealth', () => rpc.getIndexerHealth());

for (const owner of owners) {
    const o = owner.toBase58();
    await call(`getCompressedTokenBalancesByOwnerV2/${o}`, async () => {
        const r = await rpc.getCompressedTokenBalancesByOwnerV2(owner);
        return {
            slot: r.context.slot,
            items: balances(r.value.items),
            cursor: r.value.cursor,
        };
    });
    await call(`getCompressedTokenBalancesByOwner/${o}`, async () => {
        const r = await rpc.getCompressedTokenBalancesByOwner(owner, { mint });
        return { items: balances(r.items), cursor: r.cursor };
    });
    await call(`getCompressedTokenAccountsByOwner/${o}`, async () => {
        const r = await rpc.getCompressedTokenAccountsByOwner(owner, { mint });
        return { items: tokenAccounts(r.items), cursor: r.cursor };
    });
    await call(`getCompressedTokenAccountsByDelegate/${o}`, async () => {
        const r = await rpc.getCompressedTokenAccountsByDelegate(owner);
        return { items: tokenAccounts(r.items), cursor: r.cursor };
    });
}

// Bob's balances one a page: the full first page carries a cursor.
await call('getCompressedTokenBalancesByOwnerV2/paged', async () => {
    const pages = [];
    let cursor;
    for (let i = 0; i < 10; i++) {
        const r = await rpc.getCompressedTokenBalancesByOwnerV2(owners[0], {
            cursor,
            limit: new BN(1),
        });
        pages.push({ items: balances(r.value.items), cursor: r.value.cursor });
        cursor = r.value.cursor;
        if (!cursor) break;
    }
    return pages;
});

await call('getCompressedMintTokenHolders', async () => {
    const r = await rpc.getCompressedMintTokenHolders(mint);
    return { slot: r.context.slot, items: holders(r.value.items), cursor: r.value.cursor };
});

// Page through the holders one at a time, following the cursor until the
// server returns none; each page is recorded.
await call('getCompressedMintTokenHolders/paged', async () => {
    const pages = [];
    let cursor;
    for (let i = 0; i < 10; i++) {
        const r = await rpc.getCompressedMintTokenHolders(mint, { cursor, limit: new BN(1) });
        pages.push({ items: holders(r.value.items), cursor: r.value.cursor });
        cursor = r.value.cursor;
        if (!cursor) break;
    }
    return pages;
});

// A validity proof with the published V2 flag (getValidityProofV2): the
// proof the server got from its prover, which a transaction can carry.
await call('getValidityProof/V2', async () => {
    const accounts = await rpc.getCompressedTokenAccountsByOwner(owners[0]);
    const hashes = accounts.items.map(a => new BN(a.compressedAccount.hash));
    const p = await rpc.getValidityProof(hashes);
    return {
        hashes: hashes.map(h => h.toString()),
        a: Array.from(p.compressedProof.a),
        b: Array.from(p.compressedProof.b),
        c: Array.from(p.compressedProof.c),
    };
});

// The V1 token account endpoints: the published build selects the V2 ones,
// and the client picks by this flag at call time.
featureFlags.version = VERSION.V1;
for (const owner of owners) {
    const o = owner.toBase58();
    await call(`getCompressedTokenAccountsByOwner/V1/${o}`, async () => {
        const r = await rpc.getCompressedTokenAccountsByOwner(owner);
        return { items: tokenAccounts(r.items), cursor: r.cursor };
    });
    await call(`getCompressedTokenAccountsByDelegate/V1/${o}`, async () => {
        const r = await rpc.getCompressedTokenAccountsByDelegate(owner, { mint });
        return { items: tokenAccounts(r.items), cursor: r.cursor };
    });
}
// A validity proof of Bob's token accounts, with the V1 flag (the default
// up to 0.22.x), whose schema wants a compressedProof: the server asks its
// prover for it.
await call('getValidityProof/V1', async () => {
    const accounts = await rpc.getCompressedTokenAccountsByOwner(owners[0]);
    const hashes = accounts.items.map(a => new BN(a.compressedAccount.hash));
    const p = await rpc.getValidityProof(hashes);
    return {
        hashes: hashes.map(h => h.toString()),
        a: Array.from(p.compressedProof.a),
        b: Array.from(p.compressedProof.b),
        c: Array.from(p.compressedProof.c),
    };
});
featureFlags.version = VERSION.V2;

// What the client shows for each kind of error: a missing account, refused
// params, a wrong path, a missing key.
const bad = new PublicKey('11111111111111111111111111111111');
await failure('error/missing', () => rpc.getCompressedAccount(new BN(1)));
await failure('error/params', () =>
    rpc.getCompressedTokenAccountsByOwner(owners[0], { cursor: 'not a cursor' }),
);
const wrongUrl = url.replace('/?', '/v0/compression?');
const wrong = createRpc(wrongUrl, wrongUrl);
await failure('error/unknown-path', () => wrong.getIndexerSlot());
const keyless = url.replace(/[?].*$/, '');
await failure('error/no-key', () => createRpc(keyless, keyless).getCompressedBalanceByOwner(bad));

summary.errors = errors;
process.stdout.write(JSON.stringify(summary, null, 1) + '\n');
process.exit(Object.keys(errors).length ? 1 : 0);
