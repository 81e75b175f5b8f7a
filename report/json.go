package report

import (
	"fmt"
	"io"

	"github.com/vbd-dev/vbd/receipt"
)

// JSON writes the receipt, byte for byte as it is stored, so that `vbd
// --format json` and `vbd last --json` can be read with the same schema
// (docs/receipt.schema.json).
func JSON(w io.Writer, r *receipt.Receipt) error {
	data, err := receipt.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("write receipt: %w", err)
	}
	return nil
}
