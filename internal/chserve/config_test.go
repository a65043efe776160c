package chserve

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func valid() Config {
	return Config{Dir: "/tmp/x", TCPPort: 9000, HTTPPort: 8123, Users: []User{{Name: "w", Password: "p", Profile: ProfileWrite}}}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string // "" for valid
	}{
		{"valid", func(*Config) {}, ""},
		{"no dir", func(c *Config) { c.Dir = "" }, "no data directory"},
		{"port range", func(c *Config) { c.TCPPort = 70000 }, "out of range"},
		{"same ports", func(c *Config) { c.HTTPPort = 9000 }, "both 9000"},
		{"listen name", func(c *Config) { c.Listen = []string{"localhost"} }, "not an IP"},
		{"no users", func(c *Config) { c.Users = nil }, "no users"},
		{"engine user", func(c *Config) { c.Users[0].Name = EngineUser }, "engine's own"},
		{"bad name", func(c *Config) { c.Users[0].Name = "a-b" }, "letters, digits"},
		{"xml in name", func(c *Config) { c.Users[0].Name = "a><b" }, "letters, digits"},
		{"twice", func(c *Config) { c.Users = append(c.Users, c.Users[0]) }, "given twice"},
		{"profile", func(c *Config) { c.Users[0].Profile = "admin" }, "profile"},
		{"open without password", func(c *Config) { c.Users[0].Password = ""; c.Listen = []string{"0.0.0.0"} }, "no password"},
		{"loopback without password", func(c *Config) { c.Users[0].Password = ""; c.Listen = []string{"127.0.0.1", "::1"} }, ""},
		{"tls files", func(c *Config) { c.TLS = &TLS{Port: 9440} }, "certificate and a key"},
		{"tls port", func(c *Config) { c.TLS = &TLS{CertFile: "c", KeyFile: "k", Port: 9000} }, "taken"},
		{"cluster name", func(c *Config) { c.Cluster = &Cluster{Name: "a b", Shards: [][]string{{"h:1"}}} }, "cluster name"},
		{"cluster empty", func(c *Config) { c.Cluster = &Cluster{Name: "c"} }, "no shards"},
		{"cluster replica", func(c *Config) { c.Cluster = &Cluster{Name: "c", Shards: [][]string{{"h"}}} }, "want host:port"},
		{"cluster secret", func(c *Config) { c.Cluster = &Cluster{Name: "c", Shards: [][]string{{"h:1"}}, Secret: "a\x00"} }, "control"},
		{"dir control", func(c *Config) { c.Dir = "/tmp/\n" }, "control"},
		{"loopback user", func(c *Config) { c.LoopbackUsers = []string{"w"} }, ""},
		{"loopback stranger", func(c *Config) { c.LoopbackUsers = []string{"x"} }, "is not a user"},
		{"hidden", func(c *Config) { c.Hidden = []string{"default.api_keys"} }, ""},
		{"hidden no database", func(c *Config) { c.Hidden = []string{"api_keys"} }, "DATABASE.TABLE"},
		{"hidden sql", func(c *Config) { c.Hidden = []string{"d.t; GRANT ALL"} }, "DATABASE.TABLE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := valid()
			tc.edit(&c)
			err := c.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestWrite checks the files are well-formed XML with what the engine
// reads, owner-only, and no password in the clear.
func TestWrite(t *testing.T) {
	c := valid()
	c.Users = append(c.Users, User{Name: "ro", Password: "s&cret<", Profile: ProfileReadOnly})
	c.TLS = &TLS{CertFile: "/c&.pem", KeyFile: "/k.pem", Port: 9440}
	c.Cluster = &Cluster{Name: "two", Shards: [][]string{{"127.0.0.1:9000"}, {"127.0.0.1:9001", "h<:9"}}, Secret: "s<&"}
	c.LoopbackUsers, c.Hidden, c.MaxServerMemory = []string{"w"}, []string{"default.api_keys"}, 1<<30
	dir := t.TempDir()
	conf, err := c.Write(filepath.Join(dir, "conf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"config.xml", "users.xml"} {
		path := filepath.Join(dir, "conf", name)
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", name, st.Mode().Perm())
		}
		raw, _ := os.ReadFile(path)
		if strings.Contains(string(raw), "s&cret<") || strings.Contains(string(raw), ">p<") {
			t.Errorf("%s holds a password in the clear", name)
		}
		dec := xml.NewDecoder(strings.NewReader(string(raw)))
		for {
			if _, err := dec.Token(); err != nil {
				if err.Error() != "EOF" {
					t.Errorf("%s is not well-formed: %v\n%s", name, err, raw)
				}
				break
			}
		}
	}
	raw, _ := os.ReadFile(conf)
	for _, want := range []string{"<tcp_port>9000</tcp_port>", "<http_port>8123</http_port>", "<tcp_port_secure>9440</tcp_port_secure>",
		"<certificateFile>/c&amp;.pem</certificateFile>", "<secret>s&lt;&amp;</secret>", "<host>h&lt;</host>", "<listen_host>127.0.0.1</listen_host>",
		"<users_config>" + filepath.Join(dir, "conf", "users.xml") + "</users_config>",
		"<max_server_memory_usage>1073741824</max_server_memory_usage>"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("config.xml lacks %s:\n%s", want, raw)
		}
	}
	users, _ := os.ReadFile(filepath.Join(dir, "conf", "users.xml"))
	for _, want := range []string{"<readonly>2</readonly>", "<max_execution_time><min>1</min><max>60</max></max_execution_time>",
		"<readonly><const/></readonly>", "GRANT SYSTEM LISTEN ON *.*", "<ro>", "<profile>readonly</profile>", "<w>", "<profile>write</profile>",
		"<networks><ip>127.0.0.1</ip><ip>::1</ip></networks>\n      <profile>write</profile>",
		"<profile>readonly</profile>\n      <quota>default</quota>\n      <grants>\n        <query>GRANT SELECT ON *.*</query>\n        <query>REVOKE SELECT ON default.api_keys</query>"} {
		if !strings.Contains(string(users), want) {
			t.Errorf("users.xml lacks %s:\n%s", want, users)
		}
	}
}

func TestParseUsers(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []User
		err      string
	}{
		{"two", "# c\n\nw write p w d\nro readonly r\n", []User{{"w", "p w d", ProfileWrite}, {"ro", "r", ProfileReadOnly}}, ""},
		{"no password", "w write\n", []User{{"w", "", ProfileWrite}}, ""},
		{"tabs and spaces", "  w   write   p  \n", []User{{"w", "p", ProfileWrite}}, ""},
		{"no profile", "w\n", nil, "line 1: want NAME PROFILE PASSWORD"},
		{"bad profile", "w admin p\n", nil, "line 1: profile"},
		{"bad name", "\n#\nw-x write p\n", nil, "line 3: user name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseUsers(strings.NewReader(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("user %d: %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// FuzzParseUsers: any input parses or fails cleanly, and what parses
// makes a configuration that validates and writes well-formed XML.
func FuzzParseUsers(f *testing.F) {
	for _, s := range []string{"w write p\n", "ro readonly r r\n# x\n", "w\n", "a b c\n\x00", "w write <&>\"'\n"} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, in string) {
		users, err := ParseUsers(strings.NewReader(in))
		if err != nil || len(users) == 0 {
			return
		}
		c := valid()
		c.Users = users
		if err := c.Validate(); err != nil {
			return // duplicates, the engine's name
		}
		if _, err := c.Write(dir); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(filepath.Join(dir, "users.xml"))
		dec := xml.NewDecoder(strings.NewReader(string(raw)))
		for {
			if _, err := dec.Token(); err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("users.xml not well-formed: %v", err)
				}
				return
			}
		}
	})
}
