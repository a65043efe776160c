// Calls a running dasch's DAS listing methods through the Metaplex Digital
// Asset Standard API client's typed methods (umi.rpc.getAssetsByOwner and
// the rest), and prints one JSON summary on stdout. The client maps its
// input names to the wire names itself, so the summary shows what an
// application using the client gets.
//
// usage: node listings.mjs CONFIG
//
// CONFIG is a JSON object:
//
//	calls  [{url, name, method, input, kind, helius}], run in order, url
//	       the endpoint with its ?api-key=KEY:
//	       kind "list" (the default) calls method(input) once;
//	       "pages" calls it again with each answer's cursor until a page
//	       comes back empty; "raw" records the whole answer (getGrouping);
//	       "failure" expects it to throw. helius: through the client's
//	       heliusCompatibility option (owner / mint on the wire).
//
// A list answer is recorded as {head, ids}: head the answer's members but
// the list and last_indexed_slot, ids the list's item ids (id, address or
// edition_address). "pages" records the list of pages. A call that throws
// unexpectedly is recorded under "errors" instead, and the exit status is
// then 1. A failure is recorded as {threw, name, message}.

import { createUmi } from '@metaplex-foundation/umi-bundle-defaults';
import { publicKey } from '@metaplex-foundation/umi';
import { dasApi } from '@metaplex-foundation/digital-asset-standard-api';

if (process.argv.length !== 3) {
    console.error('usage: node listings.mjs CONFIG');
    process.exit(2);
}
const config = JSON.parse(process.argv[2]);

// One Umi per endpoint and option, as an application would keep it.
const umis = new Map();
function rpcOf(c) {
    const k = `${c.helius ? 'helius ' : ''}${c.url}`;
    if (!umis.has(k)) {
        umis.set(k, createUmi(c.url).use(dasApi(c.helius ? { heliusCompatibility: true } : {})));
    }
    return umis.get(k).rpc;
}

// The client's typed listing methods; any other name is a test error.
const methods = new Set([
    'getAssetsByOwner',
    'getAssetsByGroup',
    'getAssetsByCreator',
    'getAssetsByAuthority',
    'searchAssets',
    'getTokenAccounts',
    'getNftEditions',
    'getGrouping',
]);

// Inputs the client types as PublicKey, built as a caller would.
const keys = new Set(['owner', 'creator', 'authority', 'delegate', 'ownerAddress', 'mintAddress']);

const lists = { items: 'id', token_accounts: 'address', editions: 'edition_address' };

function record(answer) {
    const head = {};
    let ids = null;
    for (const [k, v] of Object.entries(answer)) {
        if (k in lists) {
            ids = v.map(item => item[lists[k]]);
        } else if (k !== 'last_indexed_slot') {
            head[k] = v;
        }
    }
    return { head, ids };
}

function typed(input) {
    return Object.fromEntries(
        Object.entries(input).map(([k, v]) => [k, keys.has(k) && typeof v === 'string' ? publicKey(v) : v]),
    );
}

async function run(c) {
    if (!methods.has(c.method)) {
        throw new Error(`${c.method} is not a listing method of the client`);
    }
    const rpc = rpcOf(c);
    const input = typed(c.input);
    switch (c.kind ?? 'list') {
        case 'list':
            return record(await rpc[c.method](input));
        case 'raw':
            return await rpc[c.method](input);
        case 'pages': {
            const pages = [];
            let cursor;
            for (;;) {
                const page = record(await rpc[c.method]({ ...input, cursor }));
                pages.push(page);
                if (page.ids.length === 0 || pages.length > 50) {
                    return pages;
                }
                cursor = page.head.cursor;
            }
        }
    }
    throw new Error(`unknown kind ${c.kind}`);
}

const summary = {};
const errors = {};
for (const c of config.calls) {
    if (c.kind === 'failure') {
        try {
            const value = await rpcOf(c)[c.method](typed(c.input));
            summary[c.name] = { threw: false, value };
        } catch (e) {
            summary[c.name] = { threw: true, name: e && e.name, message: String(e && e.message) };
        }
        continue;
    }
    try {
        summary[c.name] = await run(c);
    } catch (e) {
        errors[c.name] = String(e && e.stack ? e.stack : e);
    }
}

summary.errors = errors;
process.stdout.write(JSON.stringify(summary, null, 1) + '\n');
process.exit(Object.keys(errors).length ? 1 : 0);
