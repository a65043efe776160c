// Queries dasch serve's SQL port through ClickHouse's official Node.js
// client (@clickhouse/client, the version pinned in package.json, over
// the HTTP interface) and prints one JSON summary on stdout.
//
// usage: node client.mjs CONFIG
//
// CONFIG is a JSON object:
//
//	url, username, password  the HTTP interface and the login
//	queries  [{name, query}]: each is run with format JSONEachRow and its
//	         rows recorded under name
//	refused  [{name, query}]: each must throw; recorded under name as
//	         {threw, type, code, message}
//
// A query of queries that throws is recorded under "errors" instead, and
// the exit status is then 1.

import { createClient } from '@clickhouse/client';

if (process.argv.length !== 3) {
    console.error('usage: node client.mjs CONFIG');
    process.exit(2);
}
const config = JSON.parse(process.argv[2]);
const client = createClient({
    url: config.url,
    username: config.username,
    password: config.password,
    request_timeout: 30_000,
});

const summary = { errors: {} };
for (const q of config.queries ?? []) {
    try {
        const rs = await client.query({ query: q.query, format: 'JSONEachRow' });
        summary[q.name] = await rs.json();
    } catch (e) {
        summary.errors[q.name] = String(e?.stack ?? e);
    }
}
for (const q of config.refused ?? []) {
    try {
        // command() runs statements that return no rows (INSERT, DROP).
        await client.command({ query: q.query });
        summary[q.name] = { threw: false };
    } catch (e) {
        summary[q.name] = { threw: true, type: e?.type ?? '', code: String(e?.code ?? ''), message: String(e?.message ?? e) };
    }
}
await client.close();
console.log(JSON.stringify(summary));
process.exit(Object.keys(summary.errors).length === 0 ? 0 : 1);
