func show() {
    let answer = 42

    print(answer)
}
