# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the guest tools that flip the series' features: save the
# feature string once, and put SIS_CACHE and SIS_SYNC_CORE back as they
# were (on exit, whatever ends the script).  Needs F, the features file.
#
# usage: . features.sh; features_save; trap 'features_restore' EXIT

features_save() {
	features_saved=$(cat "$F")
}

features_restore() {
	for f in SIS_CACHE SIS_SYNC_CORE; do
		case " $features_saved " in
		*" NO_$f "*) echo "NO_$f" > "$F" ;;
		*" $f "*) echo "$f" > "$F" ;;
		esac
	done
}
