package budget

import "io"

// PlanFile plans the transcript name (stdin for "-"): read
// ([ReadTranscript]: a *[FileError] when it cannot be one), decoded in
// format f ([Decode]: an *[InputError] when a provider would refuse it),
// then planned ([NewPlan]).
func PlanFile(name string, stdin io.Reader, f Format, o Options) (*Plan, error) {
	data, err := ReadTranscript(name, stdin)
	if err != nil {
		return nil, err
	}
	t, err := Decode(data, f)
	if err != nil {
		return nil, err
	}
	return NewPlan(t, data, o)
}
