package trust

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/retrieve/embeddings"
)

// Does says in words what the value makes git-adr do, for a person about
// to trust it: top is the directory the drafter command runs in.
func (v Value) Does(top string) string {
	switch v.Key {
	case DrafterCommand.Key:
		return fmt.Sprintf("run %q with sh -c in %s", v.Value, top)
	case OpenAIBaseURL.Key:
		return fmt.Sprintf("send the evidence to %q", ChatURL(v.Value))
	case OpenAIKeyEnv.Key:
		return "send " + EnvRef(v.Value) + " as the Bearer token"
	case EmbeddingsBaseURL.Key:
		return fmt.Sprintf("send tasks and records' text to %q to be embedded", EmbeddingsURL(v.Value))
	case EmbeddingsKeyEnv.Key:
		return "send " + EnvRef(v.Value) + " as the embeddings endpoint's Bearer token"
	}
	return fmt.Sprintf("use %q", v.Value)
}

// ChatURL is where the openai drafter with base URL base sends the
// evidence.
func ChatURL(base string) string { return strings.TrimRight(base, "/") + "/chat/completions" }

// EmbeddingsURL is where an embeddings endpoint with base URL base is
// asked.
func EmbeddingsURL(base string) string { return (&embeddings.Client{BaseURL: base}).Endpoint() }
