package asset

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"
)

// ContentOptions shape what ApplyJSON adds beyond the document itself.
type ContentOptions struct {
	// CDNTemplate, when set, gives each image file a cdn_uri: the
	// template with {uri} replaced by the file's uri as it is.
	CDNTemplate string
}

// ErrDocument is an off-chain document ApplyJSON cannot read: not UTF-8
// or not JSON.
var ErrDocument = errors.New("off-chain document is not JSON")

// ApplyJSON fills c from doc, the off-chain JSON document at
// c.JSONURI, by the reference implementation's rules: description and
// attributes (any JSON value, as the document has them) into metadata;
// image, animation_url and external_url into links; files from
// properties.files (objects with uri, or url, and type; or plain strings)
// and the image and animation_url links, each with its mime (the type
// given, else guessed from the uri's extension, image/png when there is
// none), the image's file first. Name, symbol and token standard stay
// the on-chain ones. A document that is JSON but not an object adds
// nothing. It does no I/O; a document that is not JSON is ErrDocument
// and leaves c as it was.
func ApplyJSON(c *Content, doc []byte, o ContentOptions) error {
	if c == nil {
		return nil
	}
	if !utf8.Valid(doc) || !json.Valid(doc) {
		return ErrDocument
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc, &top); err != nil {
		return nil // valid JSON, not an object: nothing to select
	}
	if v, ok := top["description"]; ok {
		c.Metadata.Description = compact(v)
	}
	if v, ok := top["attributes"]; ok {
		c.Metadata.Attributes = compact(v)
	}
	links := map[string]any{}
	for _, f := range []string{"image", "animation_url", "external_url"} {
		if v, ok := top[f]; ok {
			links[f] = json.RawMessage(compact(v))
		}
	}
	var fl fileList
	var props map[string]json.RawMessage
	if json.Unmarshal(top["properties"], &props) == nil {
		for _, v := range elements(props["files"]) {
			fl.addEntry(v)
		}
		var cat string
		if json.Unmarshal(props["category"], &cat) == nil {
			c.Category = cat
		}
	}
	image, hasImage := stringOf(top["image"])
	if hasImage {
		fl.addTop(image)
	}
	if anim, ok := stringOf(top["animation_url"]); ok {
		fl.addTop(anim)
	}
	files := fl.files
	if hasImage {
		// The image first, the others in document order.
		for i := range files {
			if files[i].URI == image {
				f := files[i]
				copy(files[1:i+1], files[:i])
				files[0] = f
				break
			}
		}
	}
	if o.CDNTemplate != "" {
		for i := range files {
			if strings.HasPrefix(files[i].Mime, "image/") {
				files[i].CDNURI = strings.ReplaceAll(o.CDNTemplate, "{uri}", files[i].URI)
			}
		}
	}
	if files == nil {
		files = []File{}
	}
	c.Files, c.Links = files, links
	return nil
}

// fileList is content.files being gathered: one file per uri, in the
// order first seen, a later entry for a uri replacing the earlier one.
type fileList struct {
	files []File
	at    map[string]int
}

func (l *fileList) put(f File) {
	if i, ok := l.at[f.URI]; ok {
		l.files[i] = f
		return
	}
	if l.at == nil {
		l.at = map[string]int{}
	}
	l.at[f.URI] = len(l.files)
	l.files = append(l.files, f)
}

// addTop adds a top-level image or animation_url unless properties.files
// already listed it.
func (l *fileList) addTop(uri string) {
	if _, ok := l.at[uri]; !ok {
		l.put(fileFromURI(uri))
	}
}

// addEntry adds one element of properties.files: an object naming its
// uri (uri, else url) and type, or a string. An object whose uri is not
// a string, or that has neither member, adds nothing.
func (l *fileList) addEntry(v json.RawMessage) {
	if s, ok := stringOf(v); ok {
		l.put(fileFromURI(s))
		return
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) != nil || obj == nil {
		return
	}
	u, ok := obj["uri"]
	if !ok {
		u, ok = obj["url"]
	}
	if !ok {
		return
	}
	uri, isStr := stringOf(u)
	if !isStr {
		return
	}
	f := fileFromURI(uri)
	if mime, ok := stringOf(obj["type"]); ok {
		f.Mime = mime
	}
	l.put(f)
}

// elements are the values of a JSON array, or of an object in document
// order (a wildcard selects either); nil for anything else.
func elements(v json.RawMessage) []json.RawMessage {
	if len(v) == 0 {
		return nil
	}
	var arr []json.RawMessage
	if json.Unmarshal(v, &arr) == nil {
		return arr
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []json.RawMessage
	for dec.More() {
		if _, err := dec.Token(); err != nil { // the key
			return out
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return out
		}
		out = append(out, val)
	}
	return out
}

// stringOf is v as a string, when it is one.
func stringOf(v json.RawMessage) (string, bool) {
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// compact is v without insignificant whitespace: folded documents are
// compact JSON (ViewJSON edits them as such).
func compact(v json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return json.RawMessage("null")
	}
	return b.Bytes()
}

// fileFromURI is a file at uri, its mime guessed from the extension of
// the uri's path: image/png when the uri does not parse as an absolute
// URL or its extension is not known.
func fileFromURI(uri string) File {
	return File{URI: uri, Mime: MimeOf(uri)}
}

// MimeOf guesses the mime type of the file at uri from its path's
// extension, as the reference does; image/png when it cannot tell.
func MimeOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme == "" {
		return "image/png"
	}
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(u.Path), "."))
	if m, ok := mimeTypes[ext]; ok {
		return m
	}
	return "image/png"
}

// mimeTypes are the extensions off-chain documents use, with the type
// the reference's guesser gives them.
var mimeTypes = map[string]string{
	"png":  "image/png",
	"jpg":  "image/jpeg",
	"jpeg": "image/jpeg",
	"jpe":  "image/jpeg",
	"gif":  "image/gif",
	"webp": "image/webp",
	"svg":  "image/svg+xml",
	"bmp":  "image/bmp",
	"ico":  "image/x-icon",
	"avif": "image/avif",
	"tif":  "image/tiff",
	"tiff": "image/tiff",
	"mp4":  "video/mp4",
	"m4v":  "video/x-m4v",
	"webm": "video/webm",
	"mov":  "video/quicktime",
	"mp3":  "audio/mpeg",
	"wav":  "audio/wav",
	"ogg":  "audio/ogg",
	"flac": "audio/flac",
	"glb":  "model/gltf-binary",
	"gltf": "model/gltf+json",
	"html": "text/html",
	"htm":  "text/html",
	"json": "application/json",
	"txt":  "text/plain",
	"pdf":  "application/pdf",
}
