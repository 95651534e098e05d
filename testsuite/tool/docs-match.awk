# docs-match.awk: does a command's output match the output a document shows
# (testsuite/tool/docs.sh)?  awk -v EXP=FILE -v VARY=FILE -v GOT=FILE -f
# docs-match.awk exits 0 if it does, else 1.
#   - Trailing blanks are not compared.
#   - A line "..." of the shown output stands for any lines, none included.
#   - VARY lists what varies from run to run: "numbers" (every word that is
#     a number, with its unit: 12, 4.0, +784, 113k, 52.9, KiB, MiB/s, 69.38%),
#     or words given literally (a pid 2724, a time 15:42:14).  Each matches
#     any word there, and the blanks next to it any blanks (columns move);
#     with numbers varying, any blanks between words match any blanks.
#   - Everything else is compared exactly.

function rtrim(s) {
	sub(/[ \t\r]+$/, "", s)
	return s
}

function is_number(w) {
	return w ~ /^[-+]?[0-9][0-9.,]*[A-Za-z%]*(\/s)?$/ || w ~ /^(B|KiB|MiB|GiB|TiB)(\/s)?$/
}

# Append a piece to the pattern of expected line L: kind "L" (literal text),
# "V" (a varying word) or "B" (blanks).
function piece(l, kind, text) {
	if (kind == "L" && np[l] && pk[l, np[l]] == "L") {
		pt[l, np[l]] = pt[l, np[l]] text
		return
	}
	np[l]++
	pk[l, np[l]] = kind
	pt[l, np[l]] = text
}

# A word of expected line L: literal, or split around what varies in it.
function word(l, w,	pre, post, core, i, best, at, t) {
	if (numbers) {
		core = w
		pre = ""; post = ""
		while (core ~ /^[(\[]/) { pre = pre substr(core, 1, 1); core = substr(core, 2) }
		while (core ~ /[)\],;:]$/) {
			post = substr(core, length(core)) post
			core = substr(core, 1, length(core) - 1)
		}
		if (core != "" && is_number(core)) {
			if (pre != "") piece(l, "L", pre)
			piece(l, "V", core)
			if (post != "") piece(l, "L", post)
			return
		}
	}
	while (w != "") {
		best = 0
		for (i = 1; i <= nwords; i++) {
			at = index(w, words[i])
			if (at && (!best || at < best)) { best = at; t = words[i] }
		}
		if (!best) {
			piece(l, "L", w)
			return
		}
		if (best > 1) piece(l, "L", substr(w, 1, best - 1))
		piece(l, "V", t)
		w = substr(w, best + length(t))
	}
}

# The pattern of expected line L from its text S.
function pattern(l, s,	i, c, w, b) {
	np[l] = 0
	w = ""; b = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == " " || c == "\t") {
			if (w != "") { word(l, w); w = "" }
			b = b c
		} else {
			if (b != "") { piece(l, "B", b); b = "" }
			w = w c
		}
	}
	if (w != "") word(l, w)
	# blanks next to a varying word: any blanks; between others, literal,
	# or with numbers varying (columns as wide as their numbers) any blanks
	for (i = 1; i <= np[l]; i++)
		if (pk[l, i] == "B") {
			if ((i > 1 && pk[l, i - 1] == "V") || (i < np[l] && pk[l, i + 1] == "V"))
				pk[l, i] = "F"
			else if (numbers && i > 1)
				pk[l, i] = "G"
			else
				pk[l, i] = "L"
		}
}

# Do pieces I.. of line L match S from position P?
function pmatch(l, i, s, p,	t, k, q) {
	if (i > np[l])
		return p > length(s)
	t = pt[l, i]
	if (pk[l, i] == "L")
		return substr(s, p, length(t)) == t && pmatch(l, i + 1, s, p + length(t))
	if (pk[l, i] == "F" || pk[l, i] == "G") {
		q = p
		while (substr(s, p, 1) == " " || substr(s, p, 1) == "\t")
			p++
		return (pk[l, i] == "F" || p > q) && pmatch(l, i + 1, s, p)
	}
	# a varying word: one or more characters that are not blanks
	for (q = p; q <= length(s); q++) {
		k = substr(s, q, 1)
		if (k == " " || k == "\t")
			break
		if (pmatch(l, i + 1, s, q + 1))
			return 1
	}
	return 0
}

# Do expected lines I.. match the lines J.. that were got?
function lmatch(i, j,	k) {
	if ((i, j) in memo)
		return memo[i, j]
	if (i > ne)
		k = j > ng
	else if (want[i] == "...") {
		for (k = j; k <= ng + 1; k++)
			if (lmatch(i + 1, k))
				break
		k = k <= ng + 1
	} else
		k = j <= ng && pmatch(i, 1, got[j], 1) && lmatch(i + 1, j + 1)
	memo[i, j] = k
	return k
}

BEGIN {
	nwords = 0
	numbers = 0
	while ((getline w < VARY) > 0)
		if (w == "numbers")
			numbers = 1
		else if (w != "")
			words[++nwords] = w
	ne = 0
	while ((getline s < EXP) > 0) {
		want[++ne] = rtrim(s)
		if (want[ne] != "...")
			pattern(ne, want[ne])
	}
	ng = 0
	while ((getline s < GOT) > 0)
		got[++ng] = rtrim(s)
	exit !lmatch(1, 1)
}
