package funcs

import (
	"encoding/base64"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/mitchellh/go-homedir"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// resolvePath turns a path as written in configuration into one the
// operating system can open: "~" is expanded and relative paths are taken
// from baseDir (the directory Terrane runs in), as OpenTofu does.
func resolvePath(baseDir, path string) (string, error) {
	expanded, err := homedir.Expand(path)
	if err != nil {
		return "", fmt.Errorf("failed to expand ~: %w", err)
	}
	if !filepath.IsAbs(expanded) {
		expanded = filepath.Join(baseDir, expanded)
	}
	return filepath.Clean(expanded), nil
}

// readFileBytes reads a configuration-relative file, wording the "not found"
// error so the user learns why a file created during apply cannot be read.
// Every caller takes the path as its first parameter, and the errors blame
// it, so they read "Invalid value for "path" parameter" as in OpenTofu.
func readFileBytes(baseDir, path string, pathMarks cty.ValueMarks) ([]byte, error) {
	resolved, err := resolvePath(baseDir, path)
	if err != nil {
		return nil, function.NewArgError(0, err)
	}
	data, err := os.ReadFile(resolved)
	switch {
	case os.IsNotExist(err):
		return nil, function.NewArgErrorf(0, "no file exists at %s; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource", redactIfSensitive(path, pathMarks))
	case err != nil:
		return nil, function.NewArgErrorf(0, "failed to read file: %w", err)
	}
	return data, nil
}

// MakeFileFunc builds `file` (UTF-8 text) or, with asBase64, `filebase64`.
// A sensitive path makes the result sensitive.
func MakeFileFunc(baseDir string, asBase64 bool) function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String, AllowMarked: true}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			pathVal, pathMarks := args[0].Unmark()
			path := pathVal.AsString()
			data, err := readFileBytes(baseDir, path, pathMarks)
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			if asBase64 {
				return cty.StringVal(base64.StdEncoding.EncodeToString(data)).WithMarks(pathMarks), nil
			}
			if !utf8.Valid(data) {
				return cty.UnknownVal(cty.String), fmt.Errorf("contents of %s are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead", redactIfSensitive(path, pathMarks))
			}
			return cty.StringVal(string(data)).WithMarks(pathMarks), nil
		},
	})
}

// MakeFileExistsFunc builds `fileexists`: true for a regular file, false when
// nothing is there, an error for a directory or other special file.
func MakeFileExistsFunc(baseDir string) function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String, AllowMarked: true}},
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			pathVal, pathMarks := args[0].Unmark()
			path := pathVal.AsString()
			resolved, err := resolvePath(baseDir, path)
			if err != nil {
				return cty.UnknownVal(cty.Bool), err
			}
			info, err := os.Stat(resolved)
			switch {
			case os.IsNotExist(err):
				return cty.False.WithMarks(pathMarks), nil
			case err != nil:
				return cty.UnknownVal(cty.Bool), fmt.Errorf("failed to stat %s: %w", redactIfSensitive(path, pathMarks), err)
			case info.Mode().IsRegular():
				return cty.True.WithMarks(pathMarks), nil
			}
			return cty.UnknownVal(cty.Bool), irregularFileError(redactIfSensitive(path, pathMarks), info.Mode())
		},
	})
}

// irregularFileError says what kind of thing a path names when it is not a
// regular file, worded as OpenTofu words it.
func irregularFileError(shownPath string, mode fs.FileMode) error {
	switch kind := mode.Type(); {
	case kind&fs.ModeDir != 0:
		return fmt.Errorf("%s is a directory, not a file", shownPath)
	case kind&fs.ModeDevice != 0:
		return fmt.Errorf("%s is a device node, not a regular file", shownPath)
	case kind&fs.ModeNamedPipe != 0:
		return fmt.Errorf("%s is a named pipe, not a regular file", shownPath)
	case kind&fs.ModeSocket != 0:
		return fmt.Errorf("%s is a unix domain socket, not a regular file", shownPath)
	}
	return fmt.Errorf("%s is not a regular file", shownPath)
}

// MakeFileSetFunc builds `fileset`: the set of regular files under path that
// match a doublestar pattern, as paths relative to path with "/" separators.
func MakeFileSetFunc(baseDir string) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true},
			{Name: "pattern", Type: cty.String, AllowMarked: true},
		},
		Type:         function.StaticReturnType(cty.Set(cty.String)),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			pathVal, pathMarks := args[0].Unmark()
			patternVal, patternMarks := args[1].Unmark()
			root, err := resolvePath(baseDir, pathVal.AsString())
			if err != nil {
				return cty.UnknownVal(retType), err
			}
			pattern := patternVal.AsString()
			if !doublestar.ValidatePattern(pattern) {
				return cty.UnknownVal(retType), fmt.Errorf("failed to glob pattern %s: %w", redactIfSensitive(pattern, patternMarks), doublestar.ErrBadPattern)
			}
			matches, err := doublestar.Glob(os.DirFS(root), pattern, doublestar.WithFilesOnly(), doublestar.WithNoFollow())
			if err != nil && err != fs.ErrNotExist {
				return cty.UnknownVal(retType), fmt.Errorf("failed to glob pattern %s: %w", redactIfSensitive(pattern, patternMarks), err)
			}
			if len(matches) == 0 {
				return cty.SetValEmpty(cty.String).WithMarks(pathMarks, patternMarks), nil
			}
			vals := make([]cty.Value, len(matches))
			for i, m := range matches {
				vals[i] = cty.StringVal(filepath.ToSlash(m))
			}
			return cty.SetVal(vals).WithMarks(pathMarks, patternMarks), nil
		},
	})
}

// pathFunc builds a string → string path function that cannot fail on
// its input except through the given transform.
func pathFunc(transform func(string) (string, error)) function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			out, err := transform(args[0].AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(out), nil
		},
	})
}

// AbsPathFunc makes a path absolute against the process's working directory
// and uses "/" separators on every platform.
var AbsPathFunc = pathFunc(func(path string) (string, error) {
	abs, err := filepath.Abs(path)
	return filepath.ToSlash(abs), err
})

// DirnameFunc drops the last element of a path.
var DirnameFunc = pathFunc(func(path string) (string, error) { return filepath.Dir(path), nil })

// BasenameFunc keeps only the last element of a path.
var BasenameFunc = pathFunc(func(path string) (string, error) { return filepath.Base(path), nil })

// PathExpandFunc replaces a leading "~" with the user's home directory.
var PathExpandFunc = pathFunc(homedir.Expand)
