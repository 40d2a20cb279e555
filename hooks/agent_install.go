package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Setup is where and how the guard is installed for one agent.
type Setup struct {
	Agent Agent
	// Path is the file written, relative to the repository's top.
	Path string
	// Command is the hook command (settings files) or "" (the plugin).
	Command string
}

// Setups are the installable agents, in order.
var Setups = []Setup{
	{Agent: Claude, Path: ".claude/settings.json", Command: hookCommand(Claude)},
	{Agent: OpenCode, Path: ".opencode/plugin/git-adr-guard.js"},
	{Agent: Codex, Path: ".codex/hooks.json", Command: hookCommand(Codex)},
}

// SetupFor returns the setup of agent.
func SetupFor(a Agent) (Setup, bool) {
	for _, s := range Setups {
		if s.Agent == a {
			return s, true
		}
	}
	return Setup{}, false
}

// hookCommand runs the guard and, if git-adr cannot run (not on PATH,
// killed), refuses the call: exit 2 is the one failure both agents treat
// as a refusal, any other exit would let the tool run.
func hookCommand(a Agent) string {
	return "git adr guard --hook " + string(a) + ` || { echo "git-adr guard could not run (exit $?), so the call is refused; is git-adr on PATH? (a person removes the guard with: git adr guard uninstall --agent ` + string(a) + `)" >&2; exit 2; }`
}

// marker is how an installed hook is recognised, whatever its version.
func (s Setup) marker() string { return "adr guard --hook " + string(s.Agent) }

// pluginHeader starts the OpenCode plugin; a file that starts with it is
// git-adr's.
const pluginHeader = "// git-adr read guard for OpenCode"

// ErrForeign means the file is there and is not git-adr's.
var ErrForeign = errors.New("not git-adr's")

// Install returns the file's new content with the guard installed, and
// whether that changes it. cur is the current content (nil: no file).
func (s Setup) Install(cur []byte) ([]byte, bool, error) {
	if s.Command == "" {
		switch {
		case cur == nil:
		case string(cur) == OpenCodePlugin:
			return cur, false, nil
		case !bytes.HasPrefix(cur, []byte(pluginHeader)):
			return nil, false, fmt.Errorf("%s: %w", s.Path, ErrForeign)
		}
		return []byte(OpenCodePlugin), true, nil
	}
	doc, err := parseSettings(s.Path, cur)
	if err != nil {
		return nil, false, err
	}
	entry := hookEntry{Matcher: "*", Hooks: []hookSpec{{Type: "command", Command: s.Command, Timeout: 30}}}
	want := marshalRaw(entry)
	pre := doc.preToolUse()
	found := false
	for i, e := range pre {
		if bytes.Contains(e, []byte(s.marker())) {
			if found {
				continue
			}
			found = true
			if !jsonEqual(e, want) {
				pre[i] = want
			}
		}
	}
	if !found {
		pre = append(pre, want)
	}
	doc.setPreToolUse(pre)
	out, err := doc.encode()
	if err != nil {
		return nil, false, err
	}
	return out, cur == nil || !jsonEqual(cur, out), nil
}

// Uninstall returns the file's content without the guard (nil: the file
// is to be removed, when nothing but the guard was in it), and whether
// the guard was there.
func (s Setup) Uninstall(cur []byte) ([]byte, bool, error) {
	if cur == nil {
		return nil, false, nil
	}
	if s.Command == "" {
		if !bytes.HasPrefix(cur, []byte(pluginHeader)) {
			return cur, false, nil
		}
		return nil, true, nil
	}
	doc, err := parseSettings(s.Path, cur)
	if err != nil {
		return nil, false, err
	}
	pre := doc.preToolUse()
	var kept []json.RawMessage
	removed := false
	for _, e := range pre {
		if !bytes.Contains(e, []byte(s.marker())) {
			kept = append(kept, e)
			continue
		}
		removed = true
		// Keep other hooks someone added to the same entry.
		var ent map[string]json.RawMessage
		var hs []json.RawMessage
		if json.Unmarshal(e, &ent) != nil || json.Unmarshal(ent["hooks"], &hs) != nil {
			continue
		}
		var rest []json.RawMessage
		for _, h := range hs {
			if !bytes.Contains(h, []byte(s.marker())) {
				rest = append(rest, h)
			}
		}
		if len(rest) > 0 {
			o, err := orderedObject(e)
			if err != nil {
				continue
			}
			b := marshalRaw(rest)
			o.set("hooks", b)
			nb, _ := o.encodeCompact()
			kept = append(kept, nb)
		}
	}
	if !removed {
		return cur, false, nil
	}
	doc.setPreToolUse(kept)
	if doc.empty() {
		return nil, true, nil
	}
	out, err := doc.encode()
	return out, true, err
}

// Installed reports whether cur holds the guard.
func (s Setup) Installed(cur []byte) bool {
	if s.Command == "" {
		return bytes.HasPrefix(cur, []byte(pluginHeader))
	}
	return bytes.Contains(cur, []byte(s.marker()))
}

type hookEntry struct {
	Matcher string     `json:"matcher"`
	Hooks   []hookSpec `json:"hooks"`
}

type hookSpec struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// marshalRaw encodes v without HTML escaping (settings files are read by
// people: "2>&1" stays as written).
func marshalRaw(v any) json.RawMessage {
	return json.RawMessage(bytes.TrimSpace(marshal(v)))
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// settings is a settings file whose key order is kept.
type settings struct {
	path string
	top  *jsonObject
}

func parseSettings(path string, cur []byte) (*settings, error) {
	if len(bytes.TrimSpace(cur)) == 0 {
		return &settings{path: path, top: &jsonObject{}}, nil
	}
	o, err := orderedObject(cur)
	if err != nil {
		return nil, fmt.Errorf("%s is not a JSON object (%v); fix it or remove it, then install again", path, err)
	}
	return &settings{path: path, top: o}, nil
}

func (s *settings) hooks() *jsonObject {
	raw, ok := s.top.get("hooks")
	if !ok {
		return &jsonObject{}
	}
	o, err := orderedObject(raw)
	if err != nil {
		return &jsonObject{}
	}
	return o
}

func (s *settings) preToolUse() []json.RawMessage {
	raw, ok := s.hooks().get("PreToolUse")
	if !ok {
		return nil
	}
	var list []json.RawMessage
	json.Unmarshal(raw, &list)
	return list
}

func (s *settings) setPreToolUse(list []json.RawMessage) {
	h := s.hooks()
	if len(list) == 0 {
		h.del("PreToolUse")
	} else {
		b := marshalRaw(list)
		h.set("PreToolUse", b)
	}
	if len(h.keys) == 0 {
		s.top.del("hooks")
		return
	}
	b, _ := h.encodeCompact()
	s.top.set("hooks", b)
}

func (s *settings) empty() bool { return len(s.top.keys) == 0 }

func (s *settings) encode() ([]byte, error) {
	b, err := s.top.encodeCompact()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// jsonObject is a JSON object with its keys in their order.
type jsonObject struct {
	keys []string
	vals map[string]json.RawMessage
}

func orderedObject(data []byte) (*jsonObject, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	o := &jsonObject{vals: map[string]json.RawMessage{}}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		if _, dup := o.vals[k]; !dup {
			o.keys = append(o.keys, k)
		}
		o.vals[k] = v
	}
	if _, err := d.Token(); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("data after the object")
	}
	return o, nil
}

func (o *jsonObject) get(k string) (json.RawMessage, bool) {
	v, ok := o.vals[k]
	return v, ok
}

func (o *jsonObject) set(k string, v json.RawMessage) {
	if o.vals == nil {
		o.vals = map[string]json.RawMessage{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *jsonObject) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, x := range o.keys {
		if x == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

func (o *jsonObject) encodeCompact() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		var c bytes.Buffer
		if err := json.Compact(&c, o.vals[k]); err != nil {
			return nil, err
		}
		b.Write(c.Bytes())
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}
