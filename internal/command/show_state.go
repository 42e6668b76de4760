package command

import (
	"bytes"

	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/statefile"
)

// readStateFileBytes reads a Terraform or OpenTofu state file's state.
func readStateFileBytes(raw []byte) (*states.State, error) {
	file, err := statefile.Read(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	return file.State, nil
}
