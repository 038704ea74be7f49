#!/usr/bin/env bash
# Make the storage lab ready: install qemu and the storage tools, fetch Debian's kernel and build the
# initramfs that mounts this machine's root (read-only, 9p) under a tmpfs overlay. Idempotent; the
# kernel and initramfs are cached outside git in $DISKDOCTOR_LAB_CACHE (default ~/.cache/diskdoctor-lab).
set -euo pipefail
CACHE="${DISKDOCTOR_LAB_CACHE:-$HOME/.cache/diskdoctor-lab}"
HOST_PACKAGES="qemu-system-x86 lvm2 mdadm cryptsetup-bin thin-provisioning-tools busybox-static cpio kmod udev dmsetup xfsprogs e2fsprogs fdisk util-linux"
INITRD_MODULES="virtio_pci 9pnet_virtio 9p overlay"

missing=""
for tool in qemu-system-x86_64:qemu-system-x86 lvcreate:lvm2 mdadm:mdadm cryptsetup:cryptsetup-bin \
            thin_check:thin-provisioning-tools busybox:busybox-static cpio:cpio depmod:kmod \
            udevadm:udev dmsetup:dmsetup mkfs.xfs:xfsprogs sfdisk:fdisk; do
    command -v "${tool%%:*}" >/dev/null || [ -x "/usr/sbin/${tool%%:*}" ] || missing="$missing ${tool##*:}"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
        echo "lab: missing packages:$missing (install them with apt-get as root)" >&2
        exit 2
    fi
    echo "lab: installing$missing" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $HOST_PACKAGES >/dev/null
fi

mkdir -p "$CACHE"
if [ ! -s "$CACHE/vmlinuz" ] || [ ! -s "$CACHE/initrd.img" ] || [ ! -s "$CACHE/kernel-release" ]; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    package="$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-6/ {print $2; exit}')"
    if [ -z "$package" ]; then
        apt-get update -qq
        package="$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-6/ {print $2; exit}')"
    fi
    echo "lab: fetching $package" >&2
    (cd "$work" && apt-get download -qq "$package" >/dev/null)
    rm -rf "$CACHE/kernel"
    dpkg-deb -x "$work"/linux-image-*.deb "$CACHE/kernel"
    release="$(ls "$CACHE/kernel/lib/modules")"
    depmod -b "$CACHE/kernel" "$release"
    cp "$CACHE/kernel/boot/vmlinuz-$release" "$CACHE/vmlinuz"

    initrd="$work/initrd"
    mkdir -p "$initrd"/{bin,dev,proc,sys,lower,upper,newroot,modules}
    cp "$(command -v busybox)" "$initrd/bin/busybox"
    for applet in sh mount mkdir insmod switch_root cat echo sleep poweroff; do
        ln -s busybox "$initrd/bin/$applet"
    done
    : > "$initrd/modules/order"
    for module in $INITRD_MODULES; do
        for path in $(modprobe -d "$CACHE/kernel" -S "$release" --show-depends "$module" | awk '/^insmod/ {print $2}'); do
            base="$(basename "$path")"
            base="${base%.xz}"
            grep -qx "$base" "$initrd/modules/order" && continue
            case "$path" in
                *.xz) xz -dc "$path" > "$initrd/modules/$base" ;;
                *) cp "$path" "$initrd/modules/$base" ;;
            esac
            echo "$base" >> "$initrd/modules/order"
        done
    done
    cp "$(dirname "${BASH_SOURCE[0]}")/initrd-init" "$initrd/init"
    chmod +x "$initrd/init"
    (cd "$initrd" && find . | cpio -o -H newc --quiet | gzip -1) > "$CACHE/initrd.img.tmp"
    mv "$CACHE/initrd.img.tmp" "$CACHE/initrd.img"
    echo "$release" > "$CACHE/kernel-release"
fi
echo "$CACHE"
