import type { Logger } from './logger.ts';

/** What server/start.js (the `npm start` launcher) tells the process it started: the build, or the sources and why. */
interface LauncherNote {
  from: 'build' | 'sources';
  reason?: string;
  /** performance.now() when the launcher began (after Node itself started). */
  at?: number;
  /** process.cpuUsage() then. */
  cpu?: NodeJS.CpuUsage;
}

export interface StartupPhase {
  phase: string;
  /** Milliseconds since the process started, when the phase ended. */
  atMs: number;
  /** How long the phase took. */
  ms: number;
  /** Processor time (user + system, all threads) the process had used when the phase ended: unlike `atMs`, not stretched by a busy machine. */
  cpuMs: number;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * The start-up timeline (issue 25): each phase of a start with the time since the process started (Node's
 * performance.now() counts from the process's start), logged at debug level (`LOG_LEVEL=debug`) one line per
 * phase as it ends, then a summary line. The first phases end before the logger exists: they are kept and logged
 * when it does.
 */
export class StartupTimeline {
  readonly phases: StartupPhase[] = [];
  private last = 0;
  private logger: Logger | undefined;
  readonly launcher: LauncherNote | undefined = (globalThis as { __venueStart?: LauncherNote }).__venueStart;

  constructor() {
    // Node's own start, and the launcher's choice of build or sources, before main.ts ran.
    if (this.launcher?.at !== undefined) this.record('node', this.launcher.at, this.launcher.cpu);
    this.record(this.launcher?.from === 'build' ? 'import (build)' : 'import (sources, tsx)', performance.now());
  }

  private record(phase: string, at: number, cpu = process.cpuUsage()): StartupPhase {
    const entry = { phase, atMs: round(at), ms: round(at - this.last), cpuMs: round((cpu.user + cpu.system) / 1000) };
    this.last = at;
    this.phases.push(entry);
    if (this.logger?.isLevelEnabled('debug')) this.logger.debug(entry, 'start-up phase');
    return entry;
  }

  /** Logs the phases so far, and each next one as it ends. */
  attach(logger: Logger): void {
    this.logger = logger;
    if (!logger.isLevelEnabled('debug')) return;
    if (this.launcher?.from === 'sources' && this.launcher.reason) logger.debug({ reason: this.launcher.reason }, 'start-up from the sources (tsx)');
    for (const entry of this.phases) logger.debug(entry, 'start-up phase');
  }

  /** Ends the phase under way under this name. */
  mark(phase: string): void {
    this.record(phase, performance.now());
  }

  /** The summary line: total time and each phase's share, for the phases so far. */
  summary(label = 'start-up timeline'): void {
    if (!this.logger?.isLevelEnabled('debug')) return;
    this.logger.debug(
      { totalMs: round(this.last), cpuMs: this.phases.at(-1)?.cpuMs, from: this.launcher?.from ?? 'sources', phases: Object.fromEntries(this.phases.map((entry) => [entry.phase, entry.ms])) },
      label,
    );
  }
}
