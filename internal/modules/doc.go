// Package modules installs the modules a configuration calls from outside
// its own directory — module registries, git repositories, HTTP archives —
// into the working directory's .terrane/modules, and records where each
// module call's code is in a modules.json manifest the configuration
// loader reads.
package modules
