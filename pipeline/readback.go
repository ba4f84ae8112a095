package pipeline

import (
	"context"
	"fmt"

	"github.com/euroexec/euroexec/ingest/config"
	"github.com/euroexec/euroexec/internal/crash"
	"github.com/euroexec/euroexec/metrics/paper"
	"github.com/euroexec/euroexec/readback"
	"github.com/euroexec/euroexec/study"
)

// readBack reads the study database at dbPath into the study model with
// only the texts the paper's analysis reads (paper.TextsNeeded): every
// response's Chars and Words, but its Text only on the questions with a
// reference (for the text metrics) or a full question page; every
// question's lengths, checklist size, tags and index snippet, but its
// Prompt and Checklist texts only on the questions with a full page. They
// are read in batches once the others are known. The texts of a large
// study are most of its bytes; nothing after the analysis reads them. It
// also returns read-back's warnings and the listings, which are read on a
// connection of their own while the study is read (they need nothing of
// it).
func readBack(ctx context.Context, dbPath string, cfg config.Config, aopt paper.Options) (*study.Study, []string, readback.Listings, error) {
	return readBackFrom(ctx, func() (*readback.DB, error) { return readback.Open(dbPath) }, cfg, aopt)
}

// readBackFrom is readBack on the database open opens: a study database
// file, or the views over a Parquet store (RunStore).
func readBackFrom(ctx context.Context, open func() (*readback.DB, error), cfg config.Config, aopt paper.Options) (*study.Study, []string, readback.Listings, error) {
	db, err := open()
	if err != nil {
		return nil, nil, readback.Listings{}, err
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type listed struct {
		l   readback.Listings
		err error
	}
	done := make(chan listed, 1)
	go func() {
		var l listed
		defer func() { done <- l }()
		defer crash.Recover(&l.err)
		l.l, l.err = db.Listings(ctx)
	}()
	s, warn, err := readStudy(ctx, db, cfg, aopt)
	if err != nil {
		cancel() // the listings' scan stops; wait for it before the database is closed
		<-done
		return nil, nil, readback.Listings{}, err
	}
	l := <-done
	if l.err != nil {
		return nil, nil, readback.Listings{}, l.err
	}
	return s, warn, l.l, nil
}

// readStudy is readBack's study: without texts, then the texts the
// analysis needs.
func readStudy(ctx context.Context, db *readback.DB, cfg config.Config, aopt paper.Options) (*study.Study, []string, error) {
	s, warn, err := db.LoadWithoutTexts(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	need, err := paper.TextsNeeded(s, aopt)
	if err != nil {
		return nil, nil, fmt.Errorf("analyse: %w", err)
	}
	if _, err := db.LoadTexts(ctx, s, need.Responses); err != nil {
		return nil, nil, err
	}
	if _, err := db.LoadQuestionTexts(ctx, s, need.Questions); err != nil {
		return nil, nil, err
	}
	return s, warn, nil
}
