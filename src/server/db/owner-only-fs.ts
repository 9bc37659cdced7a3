/**
 * PGlite's file system for DATA_DIR/pgdata, keeping every file owner-only. PGlite does not leave file
 * modes to the process umask: its WebAssembly file layer creates a file and then chmods it to the mode
 * Postgres asked for (0666 for the files of a new database, 0644 for later ones), so the write-ahead log
 * — sessions, reset tokens — would be readable by every local user. Every chmod that layer makes is
 * therefore stripped of group and other bits; folders get 0700 from the umask set in data-dir.ts.
 */
import { NodeFS } from '@electric-sql/pglite/nodefs';
import type { PGlite } from '@electric-sql/pglite';

type NodeFsInit = Parameters<NodeFS['init']>;
type EmscriptenOptions = Awaited<ReturnType<NodeFS['init']>>['emscriptenOpts'];

/** The two entry points through which the emscripten file layer sets modes (open's own chmod included). */
interface ModeSetters {
  chmod(target: unknown, mode: number, dontFollow?: boolean): void;
  fchmod(fd: number, mode: number): void;
}

const GROUP_AND_OTHER = 0o077;

function keepModesOwnerOnly(fs: ModeSetters) {
  const { chmod, fchmod } = fs;
  fs.chmod = (target, mode, dontFollow) => chmod.call(fs, target, mode & ~GROUP_AND_OTHER, dontFollow);
  fs.fchmod = (fd, mode) => fchmod.call(fs, fd, mode & ~GROUP_AND_OTHER);
}

export class OwnerOnlyNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: NodeFsInit[1]): Promise<{ emscriptenOpts: EmscriptenOptions }> {
    const { emscriptenOpts } = await super.init(pg, opts);
    // preRun: before the first file of the data folder is created or opened.
    const preRun = [...(emscriptenOpts.preRun ?? []), (mod: { FS: unknown }) => keepModesOwnerOnly(mod.FS as ModeSetters)];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } };
  }
}
