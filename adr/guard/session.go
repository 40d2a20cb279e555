package guard

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/git-adr/git-adr/internal/confine"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Session is what the guard remembers of one agent session: the warnings
// it gave and the ADR files read, so that warn mode says a thing once and
// a repeated read of an unchanged file is pointed out. It is an append-only
// file of JSON lines under $GIT_DIR/adr/guard/sessions/, named by a hash
// of the agent and its session ID; hooks of one session may run at once,
// and each appends whole lines. It is bookkeeping, not a limit: a session
// that reads around the guard is not stopped by it.
type Session struct {
	path   string
	warned map[string]bool
	reads  map[string][]string // path -> fingerprints of the reads, in order
	full   bool
}

// maxSessionBytes bounds one session's file; past it nothing more is
// remembered (warnings then repeat).
const maxSessionBytes = 4 << 20

// sessionMaxAge is how long an untouched session file is kept.
const sessionMaxAge = 7 * 24 * time.Hour

type sessionEvent struct {
	Warned string `json:"warned,omitempty"`
	Read   string `json:"read,omitempty"`
	Print  string `json:"fp,omitempty"`
}

// OpenSession opens (or starts) the session id of agent under dir
// ($GIT_DIR/adr/guard). An empty id is no session: nil, nil.
func OpenSession(dir, agent, id string) (*Session, error) {
	if id == "" {
		return nil, nil
	}
	sum := sha256.Sum256([]byte(agent + "\x00" + id))
	sd := filepath.Join(dir, "sessions")
	s := &Session{path: filepath.Join(sd, hex.EncodeToString(sum[:12])+".jsonl"), warned: map[string]bool{}, reads: map[string][]string{}}
	// Without blocking, and a regular file only: a named pipe put here
	// (an agent's shell can) would hold the hook until the agent's hook
	// timeout, which lets the call run. Such a session is not used.
	f, fi, err := confine.OpenRegularFile(s.path)
	switch {
	case os.IsNotExist(err):
		if err := os.MkdirAll(sd, 0o755); err != nil {
			return nil, err
		}
		prune(sd)
		return s, nil
	case err != nil:
		return nil, err
	}
	defer f.Close()
	if fi.Size() > maxSessionBytes {
		s.full = true
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var e sessionEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue // a line cut short by a crash: the rest still counts
		}
		if e.Warned != "" {
			s.warned[e.Warned] = true
		}
		if e.Read != "" {
			s.reads[e.Read] = append(s.reads[e.Read], e.Print)
		}
	}
	return s, nil
}

// prune removes session files untouched for a week.
func prune(dir string) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range es {
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > sessionMaxAge {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

func (s *Session) append(e sessionEvent) error {
	if s.full {
		return nil
	}
	line, _ := json.Marshal(e)
	// Without blocking: a pipe put here since the session was read fails
	// the write (no reader) instead of waiting for one.
	f, err := os.OpenFile(s.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// warn reports whether the warning key is new in this session and
// remembers it.
func (s *Session) warn(key string) (bool, error) {
	sum := sha256.Sum256([]byte(key))
	k := hex.EncodeToString(sum[:12])
	if s.warned[k] {
		return false, nil
	}
	s.warned[k] = true
	return true, s.append(sessionEvent{Warned: k})
}

// read remembers a read of rel whose content has fingerprint fp and
// returns how many reads of it came before and whether the last one saw
// the same content.
func (s *Session) read(rel, fp string) (before int, same bool, err error) {
	prev := s.reads[rel]
	s.reads[rel] = append(prev, fp)
	err = s.append(sessionEvent{Read: rel, Print: fp})
	if len(prev) == 0 {
		return 0, false, err
	}
	return len(prev), prev[len(prev)-1] == fp, err
}

// fingerprint identifies a file's content cheaply: size and modification
// time.
func fingerprint(fi os.FileInfo) string {
	return fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano())
}
