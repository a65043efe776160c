package schema

// SecretTables are the tables (DATABASE.TABLE) that hold secrets: a
// read-only login for analysts must not read them. api_keys holds the
// hashes the API authenticates keys by; the other tables hold indexed
// chain data, projects and usage (request_log names a key by its id, a
// prefix of its hash that authenticates nothing).
func SecretTables() []string { return []string{"default.api_keys"} }
