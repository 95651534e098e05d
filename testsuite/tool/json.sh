# One JSON writer for the runtime and the tool (runtime/format.c's): a
# file name that is not UTF-8 is escaped (\u00XX a byte) in json reports and
# in timelines alike, the JSON stays valid, and the tool reads the byte back.
. "$TOP/testsuite/tool/lib.sh"

J=$TWORK/names
mkdir -p "$J"
name=$(printf 'caf\351.c')	# Latin-1: not UTF-8
printf '#include <stdlib.h>\nint main(void) { void *volatile p = malloc(77); (void)p; return 0; }\n' > "$J/$name"
if ! (cd "$J" && "$ATCC" -O2 -o prog "$name") > "$J/build.log" 2>&1; then
	fail "tool/json: build a program from $name" "$(cat "$J/build.log")"
	return
fi
# A json report is one document; a timeline, one a line.
valid_json() { python3 -c 'import sys, json; json.load(open(sys.argv[1], encoding="utf-8"))' "$1"; }
valid_lines() { python3 -c 'import sys, json; [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]' "$1"; }

(cd "$J" && ALLOCTAG_FORMAT=json ALLOCTAG_REPORT=report.json ./prog)
check "tool/json: the runtime's json report of a name not UTF-8 is valid JSON" valid_json "$J/report.json"
at_out "tool/json: ... which the tool reads back to the name's bytes" "1" \
	sh -c "'$AT' snapshot -f full '$J/report.json' | grep -c -F ' 77 $name:2:'"
at_private_live_dir json
(cd "$J" && "$AT" record -o "$J/run.timeline" -- ./prog 2>/dev/null)
check "tool/json: a timeline of that name is valid JSON" valid_lines "$J/run.timeline"
at_out "tool/json: the timeline's last sample is the exit report, the name's bytes kept" \
	"$("$AT" snapshot -f full "$J/report.json" | grep caf)" \
	sh -c "'$AT' snapshot -f full '$J/run.timeline' | grep caf"
at_shared_live_dir
