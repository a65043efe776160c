package chserve

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// maxHelloString bounds each string of a client hello: names and versions
// are short, and the reader is a stranger until it has logged in.
const maxHelloString = 4096

// readHello reads a native-protocol client hello from r (packet 0: client
// name, version major, minor and protocol revision as varints, database,
// user, password) and returns its bytes, to be passed on unchanged, and
// the user it logs in as.
func readHello(r io.Reader) ([]byte, string, error) {
	h := &helloReader{r: bufio.NewReaderSize(r, 512)}
	kind, err := h.uvarint()
	if err != nil {
		return h.buf, "", err
	}
	if kind != 0 {
		return h.buf, "", fmt.Errorf("native hello: first packet is %d, not a hello", kind)
	}
	if _, err := h.str(); err != nil { // client name
		return h.buf, "", err
	}
	for range 3 { // version major, minor, protocol revision
		if _, err := h.uvarint(); err != nil {
			return h.buf, "", err
		}
	}
	if _, err := h.str(); err != nil { // database
		return h.buf, "", err
	}
	user, err := h.str()
	if err != nil {
		return h.buf, "", err
	}
	// Whatever the client sent after the user (the password, more
	// packets) already in the buffer travels on with the hello.
	rest := make([]byte, h.r.Buffered())
	_, _ = io.ReadFull(h.r, rest)
	return append(h.buf, rest...), user, nil
}

type helloReader struct {
	r   *bufio.Reader
	buf []byte
}

func (h *helloReader) byte() (byte, error) {
	b, err := h.r.ReadByte()
	if err != nil {
		return 0, fmt.Errorf("native hello: %w", err)
	}
	h.buf = append(h.buf, b)
	return b, nil
}

func (h *helloReader) uvarint() (uint64, error) {
	var v uint64
	for i := 0; i < 10; i++ {
		b, err := h.byte()
		if err != nil {
			return 0, err
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("native hello: varint longer than 10 bytes")
}

func (h *helloReader) str() (string, error) {
	n, err := h.uvarint()
	if err != nil {
		return "", err
	}
	if n > maxHelloString {
		return "", fmt.Errorf("native hello: string of %d bytes", n)
	}
	start := len(h.buf)
	h.buf = append(h.buf, make([]byte, n)...)
	if n, err := io.ReadFull(h.r, h.buf[start:]); err != nil {
		h.buf = h.buf[:start+n]
		return "", fmt.Errorf("native hello: %w", err)
	}
	return string(h.buf[start:]), nil
}
