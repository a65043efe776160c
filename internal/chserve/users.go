package chserve

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// ParseUsers reads a users file: one user a line, `NAME PROFILE PASSWORD`,
// PROFILE being write or readonly and PASSWORD the rest of the line (none
// for no password); blank lines and lines starting with # are skipped.
func ParseUsers(r io.Reader) ([]User, error) {
	var users []User
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, _ := strings.Cut(line, " ")
		profile, password, _ := strings.Cut(strings.TrimLeft(rest, " \t"), " ")
		profile = strings.TrimSpace(profile)
		if profile == "" {
			return nil, fmt.Errorf("users line %d: want NAME PROFILE PASSWORD", n)
		}
		u := User{Name: name, Profile: profile, Password: strings.TrimSpace(password)}
		if !userName.MatchString(u.Name) {
			return nil, fmt.Errorf("users line %d: user name %q: want letters, digits and _", n, u.Name)
		}
		if u.Profile != ProfileWrite && u.Profile != ProfileReadOnly {
			return nil, fmt.Errorf("users line %d: profile %q, want %s or %s", n, u.Profile, ProfileWrite, ProfileReadOnly)
		}
		users = append(users, u)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("users file: %w", err)
	}
	return users, nil
}
