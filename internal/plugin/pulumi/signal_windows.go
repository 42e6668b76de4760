package pulumi

import "os"

// interruptSignal: Windows cannot interrupt another process, so it is killed.
var interruptSignal = os.Kill
