import { conditionalSyscalls, refusedSyscalls } from './sandbox-seccomp-syscalls.js';

/** The file descriptor bubblewrap reads the filter from (`--seccomp 3`): the child's first one after stdio. */
export const seccompDescriptor = 3;

/** Architectures with a filter, as `process.arch` names them, and their `AUDIT_ARCH_*` values. */
const auditArchitectures = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;
export type FilterArchitecture = keyof typeof auditArchitectures;

const loadWord = 0x20; // BPF_LD | BPF_W | BPF_ABS
const jumpIfEqual = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const jumpIfAtLeast = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const jumpIfAnyBit = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const returnValue = 0x06; // BPF_RET | BPF_K
const allow = 0x7fff0000; // SECCOMP_RET_ALLOW
const errnoAction = 0x00050000; // SECCOMP_RET_ERRNO
const eperm = 1;
const enosys = 38;
/** Offsets in `struct seccomp_data`: nr, arch, the low word of args[0] (little-endian on both architectures). */
const offsets = { syscall: 0, architecture: 4, firstArgument: 16 } as const;
/** CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET. */
const namespaceFlags = 0x7e020000;
/** x86_64: numbers from here on are the x32 ABI, which the filter refuses whole. */
const x32Bit = 0x40000000;
/** `personality` values RuntimeDefault allows: PER_LINUX, PER_LINUX32, UNAME26 with either, and the query. */
const allowedPersonalities = [0x0, 0x8, 0x20000, 0x20008, 0xffffffff];

type Label = 'allow' | 'deny' | 'noSystemCall' | 'clone' | 'personality';
/** One instruction; a jump names its targets (labels) or falls through (undefined). */
interface Instruction {
  code: number;
  value: number;
  whenTrue?: Label;
  whenFalse?: Label;
  label?: Label;
}

const load = (offset: number, label?: Label): Instruction => ({ code: loadWord, value: offset, label });
const jump = (code: number, value: number, whenTrue?: Label, whenFalse?: Label): Instruction => ({ code, value, whenTrue, whenFalse });
const answer = (value: number, label?: Label): Instruction => ({ code: returnValue, value, label });

/** The instructions before resolving labels: architecture check, refused calls, the conditional calls, then the shared answers (every jump goes forward). */
function instructionsFor(architecture: FilterArchitecture): Instruction[] {
  const numbers = conditionalSyscalls[architecture];
  const refused = refusedSyscalls.map((entry) => (architecture === 'x64' ? entry[1] : entry[2])).filter((value) => value !== undefined);
  return [
    load(offsets.architecture),
    jump(jumpIfEqual, auditArchitectures[architecture], undefined, 'deny'),
    load(offsets.syscall),
    ...(architecture === 'x64' ? [jump(jumpIfAtLeast, x32Bit, 'deny')] : []),
    ...refused.map((value) => jump(jumpIfEqual, value, 'deny')),
    jump(jumpIfEqual, numbers.clone3, 'noSystemCall'),
    jump(jumpIfEqual, numbers.clone, 'clone'),
    jump(jumpIfEqual, numbers.personality, 'personality'),
    answer(allow),
    load(offsets.firstArgument, 'clone'),
    jump(jumpIfAnyBit, namespaceFlags, 'deny'),
    answer(allow),
    load(offsets.firstArgument, 'personality'),
    ...allowedPersonalities.map((value) => jump(jumpIfEqual, value, 'allow')),
    answer(errnoAction | eperm, 'deny'),
    answer(allow, 'allow'),
    answer(errnoAction | enosys, 'noSystemCall'),
  ];
}

/** The distance from the instruction after `index` to the label (classic BPF jumps forward only, at most 255). */
function offsetTo(instructions: Instruction[], index: number, label: Label | undefined): number {
  if (label === undefined) return 0;
  const target = instructions.findIndex((instruction) => instruction.label === label);
  const offset = target - index - 1;
  if (offset < 0 || offset > 255) throw new Error(`seccomp filter: jump to ${label} out of range`);
  return offset;
}

/**
 * The seccomp filter bubblewrap installs before it runs the shell (`--seccomp`): a compiled classic
 * BPF program (`struct sock_filter[]`, little-endian) equivalent to the container runtimes'
 * RuntimeDefault for a process without capabilities. Refused calls fail with EPERM (clone3 with
 * ENOSYS, so the C library falls back to clone, which is checked for namespace flags); another
 * architecture's calls (i386, x32) are refused whole. Throws for an architecture without a filter.
 */
export function sandboxSeccompFilter(architecture: string = process.arch): Buffer {
  if (!(architecture in auditArchitectures)) throw new Error(`no seccomp filter for the ${architecture} architecture`);
  const instructions = instructionsFor(architecture as FilterArchitecture);
  const program = Buffer.alloc(instructions.length * 8);
  instructions.forEach((instruction, index) => {
    program.writeUInt16LE(instruction.code, index * 8);
    program.writeUInt8(offsetTo(instructions, index, instruction.whenTrue), index * 8 + 2);
    program.writeUInt8(offsetTo(instructions, index, instruction.whenFalse), index * 8 + 3);
    program.writeUInt32LE(instruction.value >>> 0, index * 8 + 4);
  });
  return program;
}
