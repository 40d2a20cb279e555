package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/confine"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// tipRef is where a mirror keeps the tip of ref: fetched refs never
// mix with the names a clone would use.
func tipRef(ref string) string { return "refs/adr-workspace/" + ref }

// mirrorName is a mirror's folder: the URL's hash (two workspaces naming
// one URL share its mirror) and its last word, for people.
func mirrorName(url string) string {
	sum := sha256.Sum256([]byte(url))
	base := strings.TrimSuffix(path.Base(strings.TrimRight(url, "/")), ".git")
	return hex.EncodeToString(sum[:8]) + "-" + suggestName(base) + ".git"
}

// SyncResult is what Sync did to one member.
type SyncResult struct {
	Member *Member
	// Before and After are the commits of the member's ref ("" when it
	// had none before); equal when nothing changed.
	Before, After string
	// Local: a local member, read in place (nothing fetched).
	Local bool
	Err   error
}

// SyncError is a member that could not be synced.
type SyncError struct {
	Member *Member
	Err    error
}

func (e *SyncError) Error() string {
	return fmt.Sprintf("repo %q: %v", e.Member.Name, e.Err)
}

func (e *SyncError) Unwrap() error { return e.Err }

// lockWait bounds the wait for another sync of the same mirror.
const lockWait = 2 * time.Minute

// DefaultSyncJobs is how many members Sync fetches at once unless told
// otherwise. A fetch mostly waits on the network and on the remote's
// upload-pack, so a few run side by side, as `git fetch --jobs` and
// `repo sync -j` do; a small number keeps a sync of a thousand
// repositories from opening a thousand connections. MaxSyncJobs bounds
// what a user may ask for.
const (
	DefaultSyncJobs = 4
	MaxSyncJobs     = 32
)

// Sync fetches every remote member's ref into its mirror (creating the
// mirror on first use) and checks that every local member opens. Each
// mirror is fetched under its own project lock, so two syncs of one
// mirror run one after the other; git transfers only the objects the
// mirror lacks. Up to jobs members ([DefaultSyncJobs] when jobs is not
// between 1 and [MaxSyncJobs]) are fetched at once; the
// results keep the workspace's order. A member that fails does not stop
// the others: its result carries the error.
//
// A fetch mostly waits, a term summary is work for a core: the members
// fetched are summarised beside the fetches, one per core (at most
// jobs), so that a summary never holds a fetch's place and memory
// holds no more logs than summaries run. A summary waiting for a core
// holds up the next fetch of the member's fetcher only once every
// summariser is busy.
func (w *Workspace) Sync(command string, jobs int, progress func(done, total int)) []SyncResult {
	if jobs < 1 || jobs > MaxSyncJobs {
		jobs = DefaultSyncJobs
	}
	out := make([]SyncResult, len(w.Members))
	var (
		mu        sync.Mutex
		done      int
		next      atomic.Int64
		fetchers  sync.WaitGroup
		summaries sync.WaitGroup
	)
	finished := func() {
		if progress != nil {
			mu.Lock()
			done++
			progress(done, len(w.Members))
			mu.Unlock()
		}
	}
	if progress != nil {
		progress(0, len(w.Members))
	}
	fetched := make(chan summaryJob)
	for range min(runtime.GOMAXPROCS(0), jobs) {
		summaries.Go(func() {
			for job := range fetched {
				// A summary that cannot be made is made again by the
				// next task question.
				_ = keepSummary(job.m, job.at)
				finished()
			}
		})
	}
	for range min(jobs, max(1, len(w.Members))) {
		fetchers.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(w.Members) {
					return
				}
				m := w.Members[i]
				var job *summaryJob
				out[i], job = w.syncMember(m, command)
				if job != nil {
					fetched <- *job
					continue
				}
				finished()
			}
		})
	}
	fetchers.Wait()
	close(fetched)
	summaries.Wait()
	return out
}

// summaryJob is a member whose term summary is to be made once its
// fetch is done.
type summaryJob struct {
	m  *Member
	at summaryAt
}

// syncMember fetches one remote member, or checks that a local one
// opens; a fetched member's term summary follows its tip, and is the job
// returned when it must be made. Each repository is opened once for the
// fetch or the check and once more, only when its summary must be made,
// for its log (a mirror is opened again after its fetch: the objects
// fetched are in a pack the first open did not list).
func (w *Workspace) syncMember(m *Member, command string) (SyncResult, *summaryJob) {
	res := SyncResult{Member: m, Local: !m.Remote()}
	var job *summaryJob
	if m.Remote() {
		res.Before, res.After, res.Err = w.fetch(m, command)
		if res.Err == nil {
			at := summaryAt{commit: res.After, path: m.summaryPath(filepath.Join(m.Mirror, "adr", "cache"))}
			if !at.current() {
				job = &summaryJob{m, at}
			}
		}
	} else {
		res.After, res.Err = syncLocal(m)
	}
	if res.Err != nil {
		res.Err = &SyncError{Member: m, Err: res.Err}
	}
	return res, job
}

// syncLocal checks that a local member opens and, when it is read at a
// ref, keeps its summary stamped with the ref's commit (as a mirror's
// follows its tip), which it returns. The repository is opened once.
func syncLocal(m *Member) (commit string, err error) {
	r, err := m.openLocal()
	if err != nil {
		return "", err
	}
	if m.Ref == "" {
		r.Close()
		return "", nil
	}
	if commit, err = r.ResolveRef(m.Ref + "^{commit}"); err != nil {
		r.Close()
		return "", badRef(m)
	}
	at := summaryAt{commit: commit, path: m.summaryPath(filepath.Join(r.AdrDir(), "cache"))}
	if at.current() {
		r.Close()
		return commit, nil
	}
	// A summary that cannot be made is made again by the next question.
	if ld, err := m.load(r, commit, false); err == nil {
		_ = at.save(summarise(ld))
		ld.Close()
	}
	return commit, nil
}

// lockMirror opens the mirror at dir, making it when it is not there, and
// takes its lock. A prune may move the mirror aside, under the same lock,
// after the open: the lock then finds no folder to be taken in (before
// the wait, or at its next try while it waits), and the mirror is opened,
// and so made, again; a third prune in a row is an error.
func lockMirror(dir, command string) (*gitops.Repo, *gitops.Lock, error) {
	for try := 1; ; try++ {
		r, err := gitops.OpenMirror(dir)
		if err != nil {
			return nil, nil, err
		}
		// Two syncs of one mirror meet here in the race test: the lock
		// below puts one after the other.
		failpoint.Hit("workspace-mirror")
		lock, err := r.Lock(gitops.LockOptions{Command: command, Timeout: lockWait})
		if err == nil {
			return r, lock, nil
		}
		r.Close()
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		if try == 3 {
			return nil, nil, &gitops.MirrorError{Dir: dir, Problem: "was removed by a prune three times while this sync opened it"}
		}
	}
}

// ErrBadRef means a member's ref names nothing in its repository.
var ErrBadRef = errors.New("no such ref")

func badRef(m *Member) error {
	return fmt.Errorf("ref %q: %w in %s", m.ref(), ErrBadRef, m.Given)
}

func (w *Workspace) fetch(m *Member, command string) (before, after string, err error) {
	r, lock, err := lockMirror(m.Mirror, command)
	if err != nil {
		return "", "", err
	}
	defer r.Close()
	defer lock.Release()
	// A prune keeps the mirror while this workspace file names it; the
	// record is made under the lock a prune judges under.
	if err := noteUser(r.AdrDir(), w.Path); err != nil {
		return "", "", fmt.Errorf("record the workspace file in the mirror %s: %w", m.Mirror, err)
	}
	failpoint.Hit("workspace-fetch")
	before, _ = r.RefHash(tipRef(m.ref()))
	err = r.FetchRef(m.URL, m.ref(), tipRef(m.ref()))
	failpoint.Hit("workspace-fetched")
	if err != nil {
		var ge *gitops.GitError
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "couldn't find remote ref") {
			return before, "", fmt.Errorf("ref %q: %w at %s", m.ref(), ErrBadRef, redactURL(m.URL))
		}
		if ge != nil {
			// The message names the command: not a password in its URL.
			shown := *ge
			shown.Args = slices.Clone(ge.Args)
			for i, a := range shown.Args {
				shown.Args[i] = strings.ReplaceAll(a, m.URL, redactURL(m.URL))
			}
			return before, "", &shown
		}
		return before, "", err
	}
	after, err = r.RefHash(tipRef(m.ref()))
	if err == nil {
		// Said by a prune that removes the mirror; a mirror of several
		// refs has one URL. Nothing is lost when it cannot be written.
		_ = writeSource(r.AdrDir(), m.URL)
	}
	return before, after, err
}

// sourceFile, in a mirror's adr folder, holds the URL it mirrors (its
// password masked), for people: the mirror's name holds only the URL's
// hash and last word.
const sourceFile = "source"

// writeSource keeps url in the mirror's source file, unless it is there.
func writeSource(adrDir, url string) error {
	want := redactURL(url) + "\n"
	if got, err := confine.ReadRegularFileUpTo(filepath.Join(adrDir, sourceFile), maxSource); err == nil && string(got) == want {
		return nil
	}
	return atomicfile.Write(filepath.Join(adrDir, sourceFile), []byte(want), 0o644)
}

// maxSource bounds a mirror's source file read.
const maxSource = 8 << 10

// mirrorSource is the URL a mirror's source file holds, "" when it has
// none (a mirror made before there was one) or it cannot be read.
func mirrorSource(mirror string) string {
	data, err := confine.ReadRegularFileUpTo(filepath.Join(mirror, "adr", sourceFile), maxSource)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(data), "\n")
}
