package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// runSiteDir is where the comparison's site carries the site of its i-th
// run (from 0): runs/<i+1>, relative to the comparison's site folder. The
// comparison's question links point there, so that the comparison folder
// works copied alone.
func runSiteDir(i int) string { return "runs/" + strconv.Itoa(i+1) }

// copySites puts each run's site (src) into siteDir/<dest>: files are hard
// links where the file system allows (no space used; a copy of the folder
// then copies the bytes), else copies.
func copySites(siteDir string, sites map[string]string) error {
	for dest, src := range sites {
		to := filepath.Join(siteDir, filepath.FromSlash(dest))
		err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(src, p)
			if err != nil {
				return err
			}
			target := filepath.Join(to, rel)
			switch {
			case d.IsDir():
				return os.MkdirAll(target, 0o755)
			case !d.Type().IsRegular():
				return nil // no symlinks or devices from a run folder
			}
			if os.Link(p, target) == nil {
				return nil
			}
			return copyFile(p, target)
		})
		if err != nil {
			return fmt.Errorf("copy the site of %s into the comparison: %w", src, err)
		}
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
