package schema

// ownerTokens is migration 7: token accounts leave compressed_by_owner.
//
// Every token account's owner is the compressed-token program, so in a
// table ordered by (owner, hash) the token rows form one range ordered by
// hash: the order compressed_accounts already has. Keeping them there was
// a second full-width copy of every token account at insert (one of the
// three the decoder's insert fanned out to) for a single owner's listing.
// That listing now reads compressed_accounts in hash order and checks the
// spends of the rows it reads (query/compressed).
func ownerTokens() []string {
	return []string{
		`DROP VIEW IF EXISTS compressed_by_owner_mv`,
		viewByOwner,
		`ALTER TABLE compressed_by_owner DELETE WHERE is_token SETTINGS mutations_sync = 2`,
	}
}
