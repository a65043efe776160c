package b58

import "encoding/binary"

// AppendLong is Append for inputs of any length, such as instruction
// data. A general encoder divides the whole number by 58 once per output
// character, quadratic in bytes with a small step; this one multiplies
// 32 bits of input at a time into base-58^5 digits, the same order with
// about a twentieth of the steps, which is what makes encoding every
// instruction of a transaction affordable.
func AppendLong(dst, raw []byte) []byte {
	if len(raw) <= 4*maxLimbs {
		return Append(dst, raw)
	}
	// 8 bits are 0.273 base-58^5 digits.
	acc := make([]uint64, 0, len(raw)*28/100+2)
	feed := func(v, mul uint64) {
		carry := v
		for j := range acc {
			// acc[j] < 58^5 < 2^30 and carry < 2^33: no overflow.
			x := acc[j]*mul + carry
			acc[j] = x % radix
			carry = x / radix
		}
		for carry > 0 {
			acc = append(acc, carry%radix)
			carry /= radix
		}
	}
	i := len(raw) % 4
	if i > 0 {
		var v uint64
		for _, b := range raw[:i] {
			v = v<<8 | uint64(b)
		}
		feed(v, 1<<(8*i))
	}
	for ; i < len(raw); i += 4 {
		feed(uint64(binary.BigEndian.Uint32(raw[i:])), 1<<32)
	}
	zeros := 0
	for zeros < len(raw) && raw[zeros] == 0 {
		zeros++
	}
	text := make([]byte, 5*len(acc))
	for i, d := len(acc)-1, 0; i >= 0; i, d = i-1, d+5 {
		v := uint32(acc[i])
		for k := 4; k >= 0; k-- {
			text[d+k] = chars[v%58]
			v /= 58
		}
	}
	skip := 0
	for skip < len(text) && text[skip] == '1' {
		skip++
	}
	for range zeros {
		dst = append(dst, '1')
	}
	return append(dst, text[skip:]...)
}
