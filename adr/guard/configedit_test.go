package guard

import "testing"

func TestSetFileMode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "[guard]\nmode = \"warn\"\n"},
		{"[[roots]]\npath = \"doc/adr\"\n", "[[roots]]\npath = \"doc/adr\"\n\n[guard]\nmode = \"warn\"\n"},
		{"[[roots]]\npath = \"doc/adr\"", "[[roots]]\npath = \"doc/adr\"\n\n[guard]\nmode = \"warn\"\n"},
		{"[guard]\nmode = \"off\" # team default\n[check]\n", "[guard]\nmode = \"warn\" # team default\n[check]\n"},
		{"[guard]\n\n[check]\nignore = []\n", "[guard]\nmode = \"warn\"\n\n[check]\nignore = []\n"},
		{"[ guard ]\r\n  mode='guard'\r\n", "[ guard ]\r\n  mode=\"warn\"\r\n"},
		{"guard.mode = \"off\"\n[[roots]]\npath = \"x\"\n", "guard.mode = \"warn\"\n[[roots]]\npath = \"x\"\n"},
		{"[drafter]\nmode = \"x\"\n[guard]\nmode = \"off\"\n", "[drafter]\nmode = \"x\"\n[guard]\nmode = \"warn\"\n"},
		{"[check]\nignore = []\r\n", "[check]\nignore = []\r\n\r\n[guard]\r\nmode = \"warn\"\r\n"},
	} {
		got, err := SetFileMode([]byte(c.in), Warn)
		if err != nil || string(got) != c.want {
			t.Errorf("SetFileMode(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := SetFileMode([]byte("guard = { mode = \"off\" }\n"), Warn); err == nil {
		t.Error("inline table edited")
	}
}
