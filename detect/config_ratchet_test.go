package detect

import (
	"errors"
	"strings"
	"testing"
)

func TestConfigRatchet(t *testing.T) {
	for name, c := range map[string]struct {
		file    string
		want    string
		errLine int
		errMsg  string
	}{
		"absent is the default": {file: "jobs = 1\n", want: ""},
		"block":                 {file: "ratchet = \"block\"\n", want: RatchetBlock},
		"warn":                  {file: "ratchet = \"warn\"\n", want: RatchetWarn},
		"off":                   {file: "ratchet = \"off\"\n", want: RatchetOff},
		"unknown word":          {file: "jobs = 1\nratchet = \"strict\"\n", errLine: 2, errMsg: `ratchet = "strict"; use "block", "warn" or "off"`},
		"case matters":          {file: "ratchet = \"Block\"\n", errLine: 1, errMsg: `ratchet = "Block"`},
		"empty":                 {file: "ratchet = \"\"\n", errLine: 1, errMsg: `ratchet = ""`},
		"wrong type":            {file: "ratchet = true\n", errLine: 1, errMsg: `ratchet must be "block", "warn" or "off"`},
	} {
		t.Run(name, func(t *testing.T) {
			cfg, err := LoadConfig(fsOf(".vbd.toml", c.file))
			if c.errMsg == "" {
				if err != nil {
					t.Fatalf("LoadConfig: %v", err)
				}
				if cfg.Ratchet != c.want {
					t.Errorf("Ratchet = %q, want %q", cfg.Ratchet, c.want)
				}
				return
			}
			var ce *configError
			if !errors.As(err, &ce) {
				t.Fatalf("LoadConfig error = %v (%T), want a *configError", err, err)
			}
			if ce.Key != "ratchet" || ce.Line != c.errLine {
				t.Errorf("key %q line %d, want ratchet line %d (%v)", ce.Key, ce.Line, c.errLine, err)
			}
			if !strings.Contains(err.Error(), c.errMsg) {
				t.Errorf("error %q does not contain %q", err, c.errMsg)
			}
		})
	}
}
