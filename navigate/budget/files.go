package budget

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxTranscript bounds what [ReadTranscript] reads.
const MaxTranscript = 256 << 20

// FileError is a transcript or plan file that cannot be used as one: not
// there, not a regular file, too large, not a plan.
type FileError struct{ Err error }

func (e *FileError) Error() string { return e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// ReadTranscript reads the transcript name, or stdin for "-": a regular
// file, at most [MaxTranscript] bytes. A file that cannot be one is a
// [*FileError].
func ReadTranscript(name string, stdin io.Reader) ([]byte, error) {
	r := stdin
	if name != "-" {
		st, err := os.Stat(name)
		if err != nil {
			return nil, &FileError{err}
		}
		if !st.Mode().IsRegular() {
			return nil, &FileError{fmt.Errorf("%q is not a regular file", name)}
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, &FileError{err}
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxTranscript+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxTranscript {
		return nil, &FileError{fmt.Errorf("%q is larger than %d MiB", name, MaxTranscript>>20)}
	}
	return data, nil
}

// ErrTranscriptItself means the output named is the transcript: the
// transcript is never changed.
var ErrTranscriptItself = errors.New("the output is the transcript itself")

// WriteNew writes the outbound request to output, a new file, never over
// the transcript input ([ErrTranscriptItself]) or any file that exists
// ([os.ErrExist]).
func WriteNew(input, output string, data []byte) error {
	if in, err := os.Stat(input); err == nil {
		if o, err := os.Stat(output); err == nil && os.SameFile(in, o) {
			return ErrTranscriptItself
		}
	}
	f, err := os.OpenFile(output, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(output)
		return err
	}
	return f.Close()
}

// Differs compares p with a plan saved as JSON (plan --json): "" when
// they are the same plan, else what differs in words. Data that is not a
// plan is a [*FileError].
func (p *Plan) Differs(saved []byte) (string, error) {
	var sp Plan
	if err := json.Unmarshal(saved, &sp); err != nil {
		return "", &FileError{err}
	}
	a, _ := json.Marshal(&sp)
	b, _ := json.Marshal(p)
	switch {
	case bytes.Equal(a, b):
		return "", nil
	case sp.Transcript != p.Transcript:
		return "the transcript changed since the plan was made", nil
	}
	return "the plan differs (other options)", nil
}
