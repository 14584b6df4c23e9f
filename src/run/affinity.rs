//! Which processors the workers run on. When a run has a worker for every
//! processor it may use, each worker keeps to one of them: the scheduler
//! then never runs two workers in turn on one processor while another is
//! idle (as a kernel packing threads onto few virtual processors does for
//! the first tens of milliseconds of a run), nor moves a worker away from
//! the caches it filled. With fewer workers than processors, the workers
//! are left free to go where the machine is least busy.

/// The processors this process may run on, in order; empty where that
/// cannot be told.
#[cfg(target_os = "linux")]
pub fn processors() -> Vec<usize> {
    // SAFETY: an all-zero cpu_set_t is an empty set; sched_getaffinity
    // writes at most its size into it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &raw mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
            .collect()
    }
}

#[cfg(not(target_os = "linux"))]
pub fn processors() -> Vec<usize> {
    Vec::new()
}

/// The processor each of `workers` keeps to: one each when there are as
/// many workers as processors (more than one), else none.
pub fn one_each(workers: usize) -> Vec<Option<usize>> {
    let cpus = processors();
    if workers > 1 && cpus.len() == workers {
        cpus.into_iter().map(Some).collect()
    } else {
        vec![None; workers]
    }
}

/// Keeps the calling thread to processor `cpu`. Where that is refused
/// (the processor has gone offline meanwhile), the thread runs anywhere,
/// as it would have.
#[cfg(target_os = "linux")]
pub fn keep_to(cpu: usize) {
    // SAFETY: as above; CPU_SET ignores a processor past the set's size.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &raw const set);
    }
}

#[cfg(not(target_os = "linux"))]
pub fn keep_to(_cpu: usize) {}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(target_os = "linux")]
    fn a_worker_per_processor_keeps_to_its_own() {
        use super::{keep_to, one_each, processors};
        let cpus = processors();
        assert!(!cpus.is_empty());
        let kept = one_each(cpus.len());
        if cpus.len() > 1 {
            assert_eq!(kept, cpus.iter().copied().map(Some).collect::<Vec<_>>());
        }
        assert_eq!(one_each(cpus.len() + 1), vec![None; cpus.len() + 1]);
        assert_eq!(one_each(1), vec![None]);
        // A thread kept to the last processor may run on it alone.
        let last = *cpus.last().unwrap();
        let seen = std::thread::spawn(move || {
            keep_to(last);
            processors()
        })
        .join()
        .unwrap();
        assert_eq!(seen, vec![last]);
        // The calling thread is untouched.
        assert_eq!(processors(), cpus);
    }
}
