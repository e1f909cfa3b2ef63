#!/usr/bin/env bash
# Builds a local stand-in for the Dockerfile's runtime base image,
# gcr.io/distroless/cc-debian12:nonroot, from Debian's package archive, under
# the same name, for machines that reach no container registry (our CI).
# What distroless/cc gives the binary: glibc and libgcc_s (`ldd` names
# nothing else), a nonroot user (uid/gid 65532) with a home, and /tmp. The
# real image also carries CA certificates, tzdata and netbase, which arbiter
# does not use. Needs buildah and root; takes a few seconds.
#
#   .ci/standin-base.sh
set -euo pipefail
base=gcr.io/distroless/cc-debian12:nonroot
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debs" "$work/root"
chown _apt "$work/debs" 2>/dev/null || true # apt-get download's sandbox user
(cd "$work/debs" && apt-get download -qq libc6 libgcc-s1)
for deb in "$work"/debs/*.deb; do dpkg -x "$deb" "$work/root"; done
root=$work/root
rm -rf "$root/usr/share/doc" "$root/usr/share/lintian"
mkdir -p "$root/etc" "$root/tmp" "$root/root" "$root/home/nonroot"
chmod 1777 "$root/tmp"
chmod 700 "$root/root"
chown 65532:65532 "$root/home/nonroot"
printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' \
  'nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin' \
  'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin' >"$root/etc/passwd"
printf '%s\n' 'root:x:0:' 'nobody:x:65534:' 'nonroot:x:65532:' >"$root/etc/group"
echo 'hosts: files dns' >"$root/etc/nsswitch.conf"
# A tar keeps the owners (buildah copy of a folder would make them root's).
tar -C "$root" --numeric-owner -cf "$work/rootfs.tar" .
buildah rm arbiter-standin-base >/dev/null 2>&1 || true
ctr=$(buildah from --name arbiter-standin-base scratch)
buildah add "$ctr" "$work/rootfs.tar" / >/dev/null
buildah config --user 65532:65532 --workingdir /home/nonroot \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$ctr"
buildah commit -q --format docker --rm "$ctr" "$base" >/dev/null
echo "built the stand-in $base"
