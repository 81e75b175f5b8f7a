package report

import (
	"fmt"
	"io"
	"os"

	"github.com/vbd-dev/vbd/receipt"
)

// GitHubStep is --format github: the annotations on w, and the markdown
// summary appended to summaryPath ($GITHUB_STEP_SUMMARY) when Actions set
// it. A summary file that cannot be opened is a warning on warn, not a
// failure: the annotations still go out.
func GitHubStep(w, warn io.Writer, r *receipt.Receipt, summaryPath string) error {
	if summaryPath == "" {
		return GitHub(w, nil, r)
	}
	f, err := os.OpenFile(summaryPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintf(warn, "vbd: warning: could not open $GITHUB_STEP_SUMMARY: %v\n", err)
		return GitHub(w, nil, r)
	}
	err = GitHub(w, f, r)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("write $GITHUB_STEP_SUMMARY: %w", cerr)
	}
	return err
}
