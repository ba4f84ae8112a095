package main

// outRule is the output rule every output-taking command's help states
// (see outsafe): no links or special files, and nothing a user puts in
// the output meanwhile is deleted.
const outRule = "It is never a symbolic link, pipe, socket or device, whatever --force says; if entries appear\n" +
	"in it while the command works, they are kept and nothing is replaced (exit status 3)."
