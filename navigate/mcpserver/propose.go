package mcpserver

import (
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/gitops"
)

// ProposeKey is the git config key that serves the writing tools
// (adr_propose, adr_link: true) or refuses them even when the server is
// asked to serve them (false).
const ProposeKey = "adr.mcp.propose"

// ProposeValueError is a [ProposeKey] value that is not a boolean.
type ProposeValueError struct{ Value string }

func (e *ProposeValueError) Error() string {
	return fmt.Sprintf("git config %s %q is not a boolean", ProposeKey, e.Value)
}

// ProposeServed says whether the server serves the writing tools, which
// asked (--allow-propose) requests, and why not when asked: git config
// adr.mcp.propose false outranks the request, which often comes from a
// client configuration the repository itself carries (.mcp.json).
func ProposeServed(r *gitops.Repo, asked bool) (on bool, refused string, err error) {
	v, err := r.Config(ProposeKey)
	if errors.Is(err, gitops.ErrNotFound) {
		return asked, "", nil
	}
	if err != nil {
		return false, "", err
	}
	set, err := r.ConfigBool(ProposeKey, false)
	if err != nil {
		return false, "", &ProposeValueError{Value: v}
	}
	if !set && asked {
		return false, fmt.Sprintf("git config %s is false: adr_propose and adr_link are not served despite --allow-propose", ProposeKey), nil
	}
	return set || asked, "", nil
}
