use hupai_core::{Shapes, Situation, decompose};
fn main() {
    let line = std::env::args().nth(1).unwrap();
    let s = Situation::from_json(&line).unwrap();
    let full = s.full_counts();
    for d in decompose(&full, s.hand.melds(), Shapes::MCR).unwrap() {
        println!("{:?} {:?} {:?}", d.form, d.sets, d.pair);
    }
}
