#!/usr/bin/env bash
# Runs inside the lab guest as PID 1's job: build one group of real storage stacks, run diskdoctor and
# the kernel's own tools on them, and write everything to /lab-out/$GROUP. Usage: guest.sh REPO GROUP DISKDOCTOR
set -uo pipefail
REPO="$1"
GROUP="$2"
OUT="/lab-out/$GROUP"
DD="$3"
RELEASE="$(uname -r)"
mkdir -p "$OUT/fstrim" "$OUT/stat"
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
exec > >(tee "$OUT/guest.log") 2>&1

step() { echo "lab[$GROUP] $(date +%T) $*"; }
run() { "$@" || { step "FAILED: $*"; echo "FAILED: $*" >> "$OUT/errors"; }; }

setup_guest() {
    mount -t tmpfs tmpfs /run
    # A fresh /tmp, unless the repository (and its venv) lives there, as in a CI clone under /tmp:
    # then the overlay's /tmp (this machine's, writes kept in the guest's tmpfs) must stay visible.
    case "$REPO/" in /tmp/*) ;; *) mount -t tmpfs tmpfs /tmp ;; esac
    mkdir -p /run/lock /run/lvm /run/cryptsetup /etc/lvm/archive /etc/lvm/backup "/lib/modules/$RELEASE"
    mount --bind "$LAB_CACHE/kernel/lib/modules/$RELEASE" "/lib/modules/$RELEASE"
    mount -t devpts devpts /dev/pts 2>/dev/null
    hostname "lab-$GROUP"
    echo "lab-$GROUP" > /etc/hostname
    for module in sd_mod md_mod raid0 raid1 dm_mod dm_crypt dm_thin_pool dm_delay; do run modprobe "$module"; done
    /usr/lib/systemd/systemd-udevd --daemon --resolve-names=never
    udevadm trigger --action=add >/dev/null 2>&1
    udevadm settle --timeout=60
}

disks() {
    # scsi_debug disks: $@ are its module parameters; prints the new disks' names
    run modprobe scsi_debug "$@"
    udevadm settle --timeout=60
    ls /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/ | grep '^sd' | sort
}

mkfs_mount() {
    # mkfs_mount FSTYPE DEVICE NAME [mount options]
    local fstype="$1" device="$2" name="$3"
    if [ "$fstype" = xfs ]; then run mkfs.xfs -q -f "$device"; else run mkfs.ext4 -q -F "$device"; fi
    mkdir -p "/lab/$name"
    run mount ${4:+-o "$4"} "$device" "/lab/$name"
    # some data to delete, so fstrim has freed blocks to report
    dd if=/dev/urandom of="/lab/$name/junk" bs=1M count=8 status=none && sync && rm -f "/lab/$name/junk"
    sync
}

luks() {
    # luks TYPE DEVICE NAME [open options]
    local type="$1" device="$2" name="$3"
    shift 3
    echo -n lab | run cryptsetup luksFormat -q --type "$type" --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
        --key-file - "$device"
    echo -n lab | run cryptsetup open --key-file - "$@" "$device" "$name"
}

group_ssd() {
    # two SSDs (UNMAP), GPT: md raid0, md raid1, one VG over both with linear, thin (each discard mode),
    # LUKS2 with/without allow_discards, LUKS1, plain dm-crypt and a dm-delay layer
    local a b
    read -r a b < <(disks dev_size_mb=760 add_host=2 per_host_store=1 lbpu=1 lbpws=1 | xargs)
    for disk in "$a" "$b"; do
        run sfdisk -q "/dev/$disk" <<< $'label: gpt\n,40M\n,40M\n,\n'
    done
    udevadm settle
    run mdadm --create /dev/md0 --run --level=0 --raid-devices=2 --chunk=64 "/dev/${a}1" "/dev/${b}1"
    run mdadm --create /dev/md1 --run --level=1 --raid-devices=2 --metadata=1.2 --assume-clean \
        "/dev/${a}2" "/dev/${b}2"
    udevadm settle
    mkfs_mount ext4 /dev/md0 raid0
    mkfs_mount ext4 /dev/md1 raid1
    run pvcreate -q "/dev/${a}3" "/dev/${b}3"
    run vgcreate -q -s 4m vg0 "/dev/${a}3" "/dev/${b}3"
    run lvcreate -q -y -n span -l 16 vg0 "/dev/${a}3:0-7" "/dev/${b}3:0-7"
    run lvcreate -q -y -n data -L 32m vg0
    for mode in passdown nopassdown ignore; do
        run lvcreate -q -y --type thin-pool -n "pool_$mode" -L 40m --discards "$mode" vg0
        run lvcreate -q -y --type thin -n "thin_$mode" -V 32m --thinpool "pool_$mode" vg0
    done
    run lvcreate -q -y -n luks2on -L 32m vg0
    run lvcreate -q -y -n luks2off -L 320m vg0
    run lvcreate -q -y -n luks1 -L 32m vg0
    run lvcreate -q -y -n plain -L 32m vg0
    run lvcreate -q -y -n slow -L 40m vg0
    udevadm settle
    mkfs_mount ext4 /dev/vg0/span span
    mkfs_mount ext4 /dev/vg0/data data
    for mode in passdown nopassdown ignore; do mkfs_mount ext4 "/dev/vg0/thin_$mode" "thin_$mode"; done
    luks luks2 /dev/vg0/luks2on luks2on --allow-discards
    luks luks2 /dev/vg0/luks2off luks2off
    luks luks1 /dev/vg0/luks1 luks1
    echo -n lab | run cryptsetup open --type plain --cipher aes-xts-plain64 --key-size 256 --hash sha256 \
        --key-file - --allow-discards /dev/vg0/plain plain
    run dmsetup create slow --table "0 $(blockdev --getsz /dev/vg0/slow) delay /dev/vg0/slow 0 0 /dev/vg0/slow 0 25"
    udevadm settle
    mkfs_mount ext4 /dev/mapper/luks2on luks2on
    mkfs_mount xfs /dev/mapper/luks2off luks2off
    mkfs_mount ext4 /dev/mapper/luks1 luks1
    mkfs_mount ext4 /dev/mapper/plain plain
    mkfs_mount ext4 /dev/mapper/slow slow
}

group_disks() {
    # a SCSI disk without discard (lbpu=0) and a rotational one, filesystems straight on the disks
    local a b
    read -r a b < <(disks dev_size_mb=64 add_host=2 per_host_store=1 lbpu=0 | xargs)
    mkfs_mount ext4 "/dev/$a" nodiscard
    mkfs_mount ext4 "/dev/$b" rotational
    # scsi_debug reports a non-rotating medium and sd re-reads it when the disk is opened: mark it now
    echo 1 > "/sys/block/$b/queue/rotational"
    [ "$(cat "/sys/block/$b/queue/rotational")" = 1 ] || run false "marking $b rotational"
}

group_4kn() {
    # a 4Kn SSD (4096-byte logical sectors) with a GPT partition
    local a
    a="$(disks dev_size_mb=128 sector_size=4096 lbpu=1)"
    run sfdisk -q "/dev/$a" <<< $'label: gpt\n,\n'
    udevadm settle
    mkfs_mount ext4 "/dev/${a}1" fourk
}

collect() {
    step "collecting the kernel's view"
    # udev learns of a new signature (mdadm's superblock on a partition) from an inotify watch that can
    # still be in flight; re-probe every block device so lsblk's udev view is complete, as ours is
    udevadm trigger --action=change --subsystem-match=block >/dev/null 2>&1
    udevadm settle --timeout=60
    lsblk -J -O -b > "$OUT/lsblk.json"
    dmsetup table > "$OUT/dmsetup-table.txt" 2>&1
    lvs -a --reportformat json -o lv_name,vg_name,lv_attr,discards,devices > "$OUT/lvs.json" 2>/dev/null
    cat /proc/self/mountinfo > "$OUT/mountinfo.txt"
    step "diskdoctor devices --json"
    "$DD" devices --json > "$OUT/devices.json" 2> "$OUT/devices.err"
    step "diskdoctor trim --json"
    "$DD" trim --json > "$OUT/trim.json" 2> "$OUT/trim.err"
    echo "$?" > "$OUT/trim.rc"
    step "diskdoctor capture --redact"
    "$DD" capture --redact -o "$OUT/capture.tar.gz" 2> "$OUT/capture.err"
    if mountpoint -q /lab/slow; then
        step "diskdoctor bench wal on the dm-delay layer"
        "$DD" bench wal --dir /lab/slow --profile postgres-wal --bs 4k --rate 50 --duration 2 --no-capacity --json > "$OUT/bench-slow.json" 2> "$OUT/bench-slow.err"
    fi
    step "fstrim -v on every lab mount, with discard counters before and after"
    for mountpoint in /lab/*; do
        name="$(basename "$mountpoint")"
        for stat in /sys/block/*/stat; do echo "$(basename "$(dirname "$stat")") $(cat "$stat")"; done > "$OUT/stat/$name.before"
        fstrim -v "$mountpoint" > "$OUT/fstrim/$name.out" 2>&1
        echo "$?" > "$OUT/fstrim/$name.rc"
        sync
        for stat in /sys/block/*/stat; do echo "$(basename "$(dirname "$stat")") $(cat "$stat")"; done > "$OUT/stat/$name.after"
    done
    dmesg > "$OUT/dmesg.txt"
}

apply_fixes() {
    # run the fix lines diskdoctor printed for every blocked filesystem (unmounting first when the fix
    # says so, answering the LUKS passphrase), then fstrim again with the discard counters
    step "applying diskdoctor's fixes to every blocked filesystem"
    mkdir -p "$OUT/fixed/fstrim" "$OUT/fixed/stat"
    "$(dirname "$DD")/python" - "$OUT/trim.json" > "$OUT/fixed/plan" <<'PY'
import json, sys
for fs in json.load(open(sys.argv[1]))["filesystems"]:
    if fs["verdict"] != "blocked":
        continue
    lines = [line for p in fs["problems"] for line in p["fix"]]
    unmount = any(line.startswith("#") and "unmount" in line for line in lines)
    commands = [line for line in lines if line.strip() and not line.startswith("#")]
    print("\t".join([fs["mountpoint"], fs["source"], "1" if unmount else "0", *commands]))
PY
    while IFS=$'\t' read -r -u 3 mountpoint source unmount commands; do
        name="$(basename "$mountpoint")"
        [ "$unmount" = 1 ] && run umount "$mountpoint"
        IFS=$'\t' read -r -a fixes <<< "$commands"
        for fix in "${fixes[@]}"; do
            echo "$name: $fix" >> "$OUT/fixed/commands"
            echo -n lab | bash -c "$fix" 3<&- >> "$OUT/fixed/commands" 2>&1 || echo "FAILED: $fix" >> "$OUT/fixed/commands"
        done
        udevadm settle
        [ "$unmount" = 1 ] && run mount "$source" "$mountpoint"
        dd if=/dev/urandom of="$mountpoint/junk" bs=1M count=4 status=none && sync && rm -f "$mountpoint/junk"
        sync
        for stat in /sys/block/*/stat; do echo "$(basename "$(dirname "$stat")") $(cat "$stat")"; done > "$OUT/fixed/stat/$name.before"
        fstrim -v "$mountpoint" > "$OUT/fixed/fstrim/$name.out" 2>&1
        echo "$?" > "$OUT/fixed/fstrim/$name.rc"
        sync
        for stat in /sys/block/*/stat; do echo "$(basename "$(dirname "$stat")") $(cat "$stat")"; done > "$OUT/fixed/stat/$name.after"
    done 3< "$OUT/fixed/plan"
    dmsetup table > "$OUT/fixed/dmsetup-table.txt" 2>&1
}

step "setting up the guest"
setup_guest
step "building group $GROUP"
"group_$GROUP"
collect
[ "$GROUP" = ssd ] && apply_fixes
step "done"
touch "$OUT/done"
