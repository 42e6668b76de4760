package foreignstate

import (
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/statefile"
)

// TakenIn reports whether the workspace took file in: it has the file's
// lineage and took in a serial at least as high. A file of the lineage
// with a higher serial was changed by another tool since, and is not
// taken in. ws may be nil (no workspace record yet).
func TakenIn(ws *recordstore.Workspace, file *statefile.File) bool {
	if ws == nil || file.Lineage == "" || file.Lineage != ws.Lineage {
		return false
	}
	if ws.TakenInSerial > 0 {
		return int64(file.Serial) <= ws.TakenInSerial
	}
	// Pushed before the serial taken in was recorded: a push set the
	// workspace's serial past the file's.
	return int64(file.Serial) < ws.Serial
}
