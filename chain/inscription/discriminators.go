package inscription

// Discriminators are the first eight bytes of every account
// DecodeInscription decodes: a source listing the program's accounts can
// ask for just those (the inscribed data accounts are the large ones).
func Discriminators() [][]byte {
	return [][]byte{append([]byte(nil), discInscriptionV3...), append([]byte(nil), discInscription...)}
}
