/*
 * store_key — the ledger's key file (store_key.h): read with its mode and size checked, or made
 * once with O_EXCL and flushed, file and directory, before the ledger uses it.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "store_backend.h"
#include "store_key.h"

bool store_key_path(const char *path, const char *db_path, char *out, size_t cap, store_error *error)
{
    int n = path != NULL && path[0] ? snprintf(out, cap, "%s", path) : snprintf(out, cap, "%s.key", db_path);
    if (n < 0 || (size_t)n >= cap) {
        store_error_set(error, STORE_INVALID, "The ledger key's path is too long.");
        return false;
    }
    return true;
}

static store_status errno_status(int err)
{
    return err == EACCES || err == EPERM || err == EROFS ? STORE_READONLY : err == ENOSPC ? STORE_FULL : STORE_IO;
}

store_status store_key_load(const char *path, unsigned char key[STORE_LEDGER_KEY_BYTES], store_error *error)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
    if (fd < 0 && errno == ENOENT)
        return store_error_set(error, STORE_NOT_FOUND, "There is no ledger key at %s.", path);
    if (fd < 0)
        return store_error_set(error, errno_status(errno), "The ledger key %s cannot be opened: %s.", path,
                               strerror(errno));
    struct stat st;
    store_status status = STORE_OK;
    if (fstat(fd, &st) != 0) {
        status = store_error_set(error, STORE_IO, "The ledger key %s cannot be examined: %s.", path, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        status = store_error_set(error, STORE_INVALID, "The ledger key %s is not a regular file.", path);
    } else if ((st.st_mode & 077) != 0) {
        status = store_error_set(error, STORE_INVALID,
                                 "The ledger key %s may be read or written by others (mode %04o); only its owner may"
                                 " (chmod 600 %s), and if others could read it, the ledger is no longer safe.",
                                 path, (unsigned)(st.st_mode & 07777), path);
    } else if (st.st_size != STORE_LEDGER_KEY_BYTES) {
        status = store_error_set(error, STORE_CORRUPT, "The ledger key %s is %lld bytes, not %d: it is not a key.",
                                 path, (long long)st.st_size, STORE_LEDGER_KEY_BYTES);
    } else {
        ssize_t got = read(fd, key, STORE_LEDGER_KEY_BYTES);
        if (got != STORE_LEDGER_KEY_BYTES)
            status = store_error_set(error, STORE_IO, "The ledger key %s cannot be read: %s.", path,
                                     got < 0 ? strerror(errno) : "it is shorter than it says");
    }
    close(fd);
    if (status != STORE_OK)
        sodium_memzero(key, STORE_LEDGER_KEY_BYTES);
    return status;
}

/* The directory entry of a new file survives a power cut only once its directory is flushed. */
static void sync_directory(const char *path)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

store_status store_key_create(const char *path, unsigned char key[STORE_LEDGER_KEY_BYTES], store_error *error)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
    if (fd < 0 && errno == EEXIST)
        return store_error_set(error, STORE_CONFLICT, "The ledger key %s appeared while it was being made.", path);
    if (fd < 0)
        return store_error_set(error, errno_status(errno), "The ledger key %s cannot be created: %s.", path,
                               strerror(errno));
    randombytes_buf(key, STORE_LEDGER_KEY_BYTES);
    /* The umask may have taken bits away, never added any; fchmod makes it 0600 exactly. */
    bool ok = fchmod(fd, 0600) == 0 && write(fd, key, STORE_LEDGER_KEY_BYTES) == STORE_LEDGER_KEY_BYTES &&
              fsync(fd) == 0;
    int err = errno;
    close(fd);
    if (!ok) {
        unlink(path);
        sodium_memzero(key, STORE_LEDGER_KEY_BYTES);
        return store_error_set(error, errno_status(err), "The ledger key %s cannot be written: %s.", path,
                               strerror(err));
    }
    sync_directory(path);
    return STORE_OK;
}
