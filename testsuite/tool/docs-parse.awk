# docs-parse.awk: the shell commands a Markdown document shows, for
# testsuite/tool/docs.sh (the convention: docs/development.md, "Commands in
# the documents").  awk -v OUT=DIR -v DOC=NAME -f docs-parse.awk FILE writes
# into DIR:
#   commands       a line per command: N <tab> LINE <tab> MODE <tab> TERMINAL
#                  <tab> ARG, MODE run, notrun (ARG the reason) or needs (ARG
#                  the program), TERMINAL 1 to run it on a terminal
#   N.cmd          command N's text (its continuation lines too)
#   N.exp          the output shown after it
#   N.vary         what varies in that output: "numbers", or literal words
#   errors         "DOC:LINE: what is wrong", a line each
#   links          LINE <tab> TARGET of every relative link [text](TARGET)
#   headings       the anchor of every heading, as GitHub makes it
# A ```sh block's lines are "$ COMMAND" (a line ending in \ goes on with
# the next, a here-document <<'EOF' to its EOF line) and the output shown
# after it; a marker <!-- doc-test: ... --> right before the block (blank
# lines between) says "not run: REASON" (all the rest is the reason), or
# "needs: PROGRAM", "vary: numbers WORD..." and "on a terminal", ";"
# between them.

function err(msg) {
	printf "%s:%d: %s\n", DOC, NR, msg >> (OUT "/errors")
}

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

# The marker's options for the block that follows.
function read_marker(text,	parts, i, n, opt, key, val) {
	mode = "run"; arg = ""; vary = ""; terminal = 0
	if (text ~ /^not run:/) {	# the rest is the reason, whatever it holds
		mode = "notrun"
		arg = trim(substr(text, 9))
		if (arg == "")
			err("\"not run:\" says why")
		return
	}
	n = split(text, parts, ";")
	for (i = 1; i <= n; i++) {
		opt = trim(parts[i])
		if (opt == "")
			continue
		key = opt; val = ""
		if (index(opt, ":")) {
			key = trim(substr(opt, 1, index(opt, ":") - 1))
			val = trim(substr(opt, index(opt, ":") + 1))
		}
		if (key == "needs" && val ~ /^[A-Za-z0-9._+-]+$/) {
			if (mode == "run") { mode = "needs"; arg = val }
		} else if (key == "vary" && val != "") {
			vary = val
		} else if (opt == "on a terminal") {
			terminal = 1
		} else {
			err("a doc-test marker is \"not run: REASON\", or \"needs: PROGRAM\", " \
			    "\"vary: WORD...\" and \"on a terminal\", not \"" opt "\"")
		}
	}
}

function end_command() {
	if (n_cmd > 0 && !closed[n_cmd]) {
		close(OUT "/" n_cmd ".cmd")
		close(OUT "/" n_cmd ".exp")
		closed[n_cmd] = 1
	}
}

function start_command(text, line,	i, nv, words) {
	end_command()
	n_cmd++
	printf "%d\t%d\t%s\t%d\t%s\n", n_cmd, line, mode, terminal, arg >> (OUT "/commands")
	printf "%s\n", text > (OUT "/" n_cmd ".cmd")
	printf "" > (OUT "/" n_cmd ".exp")
	nv = split(vary, words, /[ \t]+/)
	for (i = 1; i <= nv; i++)
		printf "%s\n", words[i] > (OUT "/" n_cmd ".vary")
	if (nv)
		close(OUT "/" n_cmd ".vary")
}

# The word that ends the here-document a command line starts (<<'EOF'), or "".
function here_document(line,	w) {
	if (!match(line, /<<['"]?[A-Za-z_]+['"]?/))
		return ""
	w = substr(line, RSTART + 2, RLENGTH - 2)
	gsub(/['"]/, "", w)
	return w
}

# GitHub's anchor of a heading: lower case, punctuation dropped, blanks to "-".
function anchor(h,	a, c, i) {
	h = tolower(h)
	a = ""
	for (i = 1; i <= length(h); i++) {
		c = substr(h, i, 1)
		if (c ~ /[a-z0-9_-]/)
			a = a c
		else if (c == " ")
			a = a "-"
	}
	return a
}

BEGIN {
	fence = ""
	marker = ""
	n_cmd = 0
	printf "" > (OUT "/commands")
	printf "" > (OUT "/errors")
	printf "" > (OUT "/links")
	printf "" > (OUT "/headings")
}

# Inside a fenced block.
fence != "" {
	if (trim($0) == fence) {
		fence = ""
		end_command()
		next
	}
	if (indent != "")	# a block indented in a list: not the lines' own
		sub("^" indent, "")
	if (lang != "sh" || bad) {
		if ($0 ~ /^[ \t]*\$ / && lang != "markdown")
			err("a command in a ```" lang " block: commands go in ```sh blocks")
		next
	}
	if (heredoc != "") {
		printf "%s\n", $0 > (OUT "/" n_cmd ".cmd")
		if ($0 == heredoc)
			heredoc = ""
	} else if (continued) {
		printf "%s\n", $0 > (OUT "/" n_cmd ".cmd")
		continued = $0 ~ /\\$/
		heredoc = here_document($0)
	} else if ($0 ~ /^\$ /) {
		start_command(substr($0, 3), NR)
		continued = $0 ~ /\\$/
		heredoc = here_document($0)
	} else if (n_cmd == first_cmd) {
		err("a ```sh block's first line is a command, \"$ COMMAND\"")
		bad = 1
	} else {
		printf "%s\n", $0 > (OUT "/" n_cmd ".exp")
	}
	next
}

# A fence opens.
/^[ \t]*(```|~~~)/ {
	indent = $0
	sub(/[^ \t].*/, "", indent)
	line = trim($0)
	fence = substr(line, 1, 3)
	while (substr(line, length(fence) + 1, 1) == substr(fence, 1, 1))
		fence = fence substr(fence, 1, 1)
	lang = trim(substr(line, length(fence) + 1))
	sub(/[ \t].*/, "", lang)
	if (lang ~ /^(bash|shell|console|zsh|shell-session|sh-session)$/)
		err("a ```" lang " block: shell commands go in ```sh blocks")
	if (lang == "sh") {
		if (marker != "")
			read_marker(marker)
		else
			read_marker("")
		first_cmd = n_cmd
		continued = 0
		heredoc = ""
		bad = 0
	} else if (marker != "") {
		err("a doc-test marker before a ```" lang " block: it goes right before a ```sh block")
	}
	marker = ""
	next
}

# A marker, for the ```sh block that follows.
/^[ \t]*<!-- *doc-test:/ {
	if ($0 !~ /^[ \t]*<!-- *doc-test:.*-->[ \t]*$/)
		err("a doc-test marker is one line of its own: <!-- doc-test: ... -->")
	marker = $0
	sub(/^[ \t]*<!-- *doc-test:/, "", marker)
	sub(/-->[ \t]*$/, "", marker)
	marker = trim(marker)
	if (marker == "")
		marker = " "
	next
}

# Anything else: text.
{
	if (marker != "" && trim($0) != "") {
		err("a doc-test marker not followed by a ```sh block")
		marker = ""
	}
	if ($0 ~ /^[ \t]*\$ /)
		err("a command outside a ```sh block")
	if ($0 ~ /^#+ /) {
		h = $0
		sub(/^#+ +/, "", h)
		a = anchor(h)
		seen[a]++
		if (seen[a] > 1)
			a = a "-" (seen[a] - 1)
		printf "%s\n", a >> (OUT "/headings")
	}
	rest = $0
	gsub(/`[^`]*`/, "", rest)	# code, not links
	while (match(rest, /\]\([^) ]+\)/)) {
		target = substr(rest, RSTART + 2, RLENGTH - 3)
		rest = substr(rest, RSTART + RLENGTH)
		if (target !~ /^[a-z]+:/)
			printf "%d\t%s\n", NR, target >> (OUT "/links")
	}
}

END {
	if (fence != "")
		err("a ``` block that does not end")
	if (marker != "")
		err("a doc-test marker not followed by a ```sh block")
	end_command()
}
