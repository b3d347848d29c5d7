#!/usr/bin/perl
# How long `check --stdin` takes to answer the first id after it arrives.
#
#   perl scripts/first-answer.pl RUNS ID COMMAND [ARGS...]
#
# Each run starts COMMAND with its stdin and stdout on pipes, waits 300 ms so that it
# has started and is blocked reading its input, then writes ID and a newline and
# times, with the monotonic clock, until the first answer line comes back. Prints the
# run times in milliseconds, one per line, in run order.
use strict;
use warnings;
use IPC::Open2;
use IO::Handle;
use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC sleep);

my ($runs, $id, @command) = @ARGV;
die "usage: first-answer.pl RUNS ID COMMAND [ARGS...]\n" unless $runs && defined $id && @command;
for (1 .. $runs) {
    my $pid = open2(my $from, my $to, @command);
    $to->autoflush(1);
    sleep 0.3;
    my $start = clock_gettime(CLOCK_MONOTONIC);
    print $to "$id\n";
    my $line = <$from>;
    my $elapsed = clock_gettime(CLOCK_MONOTONIC) - $start;
    die "first-answer.pl: no answer from @command\n" unless defined $line;
    close $to;
    1 while <$from>;
    waitpid $pid, 0;
    printf "%.3f\n", $elapsed * 1000;
}
